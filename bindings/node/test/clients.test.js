'use strict'
// The package with what Node programs talk to clusters with, against a real HTTP API server
// (`smp serve`): `@kubernetes/client-node` sends the patch `apply` computes, and the server
// stores what `apply` said it would; a cdk8s chart's Deployment, strategically patched, is
// created through the client. Needs the `smp` binary: `$SMP_BIN`, else the repository's
// `target/debug/smp` (`.ci/node-package` builds it and sets `SMP_BIN`).
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const readline = require('node:readline')
const { spawn } = require('node:child_process')
const { smp, example, REPO } = require('./support.js')

function smpBinary () {
  if (process.env.SMP_BIN) return process.env.SMP_BIN
  for (const profile of ['debug', 'release']) {
    const candidate = path.join(REPO, 'target', profile, 'smp')
    if (fs.existsSync(candidate)) return candidate
  }
  return null
}

async function withServer (t, body) {
  const binary = smpBinary()
  if (!binary) {
    t.skip('no smp binary (SMP_BIN, target/debug/smp): `cargo build -p smp-cli` first')
    return
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-node-'))
  const kubeconfig = path.join(dir, 'kubeconfig.yaml')
  const server = spawn(binary, ['serve', '--kubeconfig', kubeconfig], { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const first = await new Promise((resolve, reject) => {
      readline.createInterface({ input: server.stdout }).once('line', resolve)
      server.once('exit', code => reject(new Error(`smp serve exited with ${code}`)))
    })
    assert.match(first, /^listening on /)
    const k8s = await import('@kubernetes/client-node')
    const kc = new k8s.KubeConfig()
    kc.loadFromFile(kubeconfig)
    // `smp serve` speaks plain HTTP on loopback, which the client only accepts with this set.
    kc.clusters = kc.clusters.map(c => ({ ...c, skipTLSVerify: true }))
    await body(k8s, kc)
  } finally {
    server.kill()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const strategic = k8s => k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch)

test('client-side apply through @kubernetes/client-node', async t => {
  await withServer(t, async (k8s, kc) => {
    const core = kc.makeApiClient(k8s.CoreV1Api)
    const apps = kc.makeApiClient(k8s.AppsV1Api)
    await core.createNamespace({ body: { metadata: { name: 'shop' } } })
    const desired = example('apply-config/desired.yaml')
    await apps.createNamespacedDeployment({ namespace: 'shop', body: smp.apply(null, desired).result })

    const changed = smp.merge(desired, { spec: { replicas: 4, template: { spec: { containers: [{ name: 'app', image: 'shop/web:1.6' }] } } } })
    const live = await apps.readNamespacedDeployment({ name: 'web', namespace: 'shop' })
    const { patch, result } = smp.apply(JSON.parse(JSON.stringify(live)), changed)
    await apps.patchNamespacedDeployment({ name: 'web', namespace: 'shop', body: patch }, strategic(k8s))
    const stored = JSON.parse(JSON.stringify(await apps.readNamespacedDeployment({ name: 'web', namespace: 'shop' })))
    assert.equal(stored.spec.replicas, 4)
    assert.equal(stored.spec.template.spec.containers[0].image, 'shop/web:1.6')
    assert.deepEqual(stored.spec, result.spec)
    assert.deepEqual(smp.apply(stored, changed).patch, {}, 'nothing left to apply')
  })
})

test('a cdk8s chart\'s Deployment, strategically patched, created through the client', async t => {
  await withServer(t, async (k8s, kc) => {
    const { App, Chart, ApiObject } = require('cdk8s')
    const app = new App()
    const chart = new Chart(app, 'shop')
    new ApiObject(chart, 'web', { // eslint-disable-line no-new
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'app', image: 'shop/web:1.5', env: [{ name: 'MODE', value: 'a' }] }] }
        }
      }
    })
    const [deployment] = chart.toJson()
    const patched = smp.merge(deployment, {
      spec: { template: { spec: { containers: [{ name: 'app', env: [{ name: 'EXTRA', value: 'b' }] }, { name: 'log', image: 'fluent-bit:3' }] } } }
    })
    const containers = patched.spec.template.spec.containers
    assert.deepEqual(containers.map(c => c.name), ['app', 'log'], 'containers merge by name')
    assert.deepEqual(containers[0].env.map(e => e.name).sort(), ['EXTRA', 'MODE'], 'env merges by name')
    assert.equal(containers[0].image, 'shop/web:1.5')
    const apps = kc.makeApiClient(k8s.AppsV1Api)
    await apps.createNamespacedDeployment({ namespace: 'default', body: patched })
    const stored = await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })
    assert.deepEqual(stored.spec.template.spec.containers.map(c => c.name), ['app', 'log'])
  })
})
