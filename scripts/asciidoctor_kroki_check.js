// Asciidoctor.js with asciidoctor-kroki pointed at `puml serve`: converts a
// document with a [plantuml] block, has the extension fetch the diagram
// (kroki-fetch-diagram) and checks that the saved image is puml's SVG; then
// checks that the URL it would embed without fetching answers with an SVG.
// Usage: node asciidoctor_kroki_check.js http://127.0.0.1:PORT OUTDIR
const fs = require('fs')
const path = require('path')
const http = require('http')
const asciidoctor = require('@asciidoctor/core')()
const kroki = require('asciidoctor-kroki')

const [server, outDir] = process.argv.slice(2)
const source = `= Doc

[plantuml,sequence,svg]
----
Alice -> Bob : from asciidoctor
----
`

function convert (fetch) {
  const registry = asciidoctor.Extensions.create()
  kroki.register(registry)
  const attributes = { 'kroki-server-url': server, imagesdir: outDir, 'imagesoutdir': outDir }
  if (fetch) attributes['kroki-fetch-diagram'] = true
  return asciidoctor.convert(source, { safe: 'unsafe', extension_registry: registry, attributes, to_file: false, base_dir: outDir })
}

function get (url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let body = ''
      res.on('data', (chunk) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body }))
    }).on('error', reject)
  })
}

async function main () {
  const fetched = convert(true)
  const saved = fs.readdirSync(outDir).filter((name) => name.endsWith('.svg'))
  if (saved.length !== 1) throw new Error(`expected one fetched SVG, got ${saved} in ${fetched}`)
  const svg = fs.readFileSync(path.join(outDir, saved[0]), 'utf8')
  if (!svg.startsWith('<svg') || !svg.includes('from asciidoctor')) throw new Error(`not our SVG: ${svg.slice(0, 200)}`)
  const linked = convert(false)
  const match = linked.match(/src="([^"]+)"/)
  if (!match || !match[1].startsWith(server + '/plantuml/svg/')) throw new Error(`no Kroki URL in ${linked}`)
  const answer = await get(match[1])
  if (answer.status !== 200 || answer.type !== 'image/svg+xml' || !answer.body.includes('from asciidoctor')) {
    throw new Error(`GET ${match[1]} answered ${answer.status} ${answer.type}`)
  }
  console.log(`asciidoctor-kroki: fetched ${saved[0]} (${svg.length} bytes) and GET ${match[1].length}-char URL ok`)
}

main().catch((error) => { console.error(error); process.exit(1) })
