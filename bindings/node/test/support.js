'use strict'
// What the tests share: the package (installed, or this directory's), the repository's paths.
const path = require('node:path')
const fs = require('node:fs')

const REPO = path.resolve(__dirname, '..', '..', '..')
const smp = require(process.env.SMP_NODE_PACKAGE || path.resolve(__dirname, '..'))

function example (name) {
  return fs.readFileSync(path.join(REPO, 'examples', name), 'utf8')
}

module.exports = { REPO, smp, example }
