'use strict'
// The JavaScript examples of the package's README and of the repository's run as written and
// print what the READMEs say.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const vm = require('node:vm')
const { smp, REPO } = require('./support.js')

for (const readme of ['bindings/node/README.md', 'README.md']) {
  test(`${readme}: the example prints both containers, app with its new image`, () => {
    const blocks = [...fs.readFileSync(path.join(REPO, readme), 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map(m => m[1])
    assert.equal(blocks.length, 1, 'one JavaScript example')
    const printed = []
    const sandbox = {
      require: name => (name === 'kubernetes-smp' ? smp : require(name)),
      console: { log: (...args) => printed.push(args.join(' ')) }
    }
    vm.runInNewContext(blocks[0], sandbox)
    assert.deepEqual(JSON.parse(printed.join('\n')), [{ name: 'app', image: 'app:2' }, { name: 'log', image: 'log:1' }])
  })
}
