// Converts vega-datasets' data/flights-3m.parquet into an approxgp column file (format: datasets/README.md,
// reader and writer: org.approxgp.data.ColumnFile). Run by datasets/build/flights.sh, which fetches the
// npm tarball and checks its sha256:
//   node convert.mjs <flights-3m.parquet> <out.apc> <source-label> <source-sha256>
// The columns are the source's, unchanged: date (MMDDHHMM as the integer MMDDHHMM), delay and distance
// (int32), origin and destination (int32 codes into the column's "levels", the IATA codes sorted).
// All feature engineering (calendar, coordinates) happens in Java (org.approxgp.data.Flights).
import { createHash } from 'node:crypto'
import { openSync, writeSync, closeSync, renameSync } from 'node:fs'
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

const [input, output, sourceLabel, sourceSha] = process.argv.slice(2)
if (!output) {
  console.error('usage: node convert.mjs <flights-3m.parquet> <out.apc> <source-label> <source-sha256>')
  process.exit(2)
}
const file = await asyncBufferFromFile(input)
const meta = await parquetMetadataAsync(file)
const n = Number(meta.num_rows)
const cols = {
  date: new Int32Array(n), delay: new Int32Array(n), distance: new Int32Array(n),
  origin: new Int32Array(n), destination: new Int32Array(n),
}
const levels = { origin: [], destination: [] }
const codeOf = { origin: new Map(), destination: new Map() }
let nulls = 0
const toInt = (name, v, row) => {
  if (v === null || v === undefined) {
    nulls++
    throw new Error(`${input}: row ${row}, column ${name} is null`)
  }
  const x = Number(v)
  if (!Number.isInteger(x) || x < -2147483648 || x > 2147483647) {
    throw new Error(`${input}: row ${row}, column ${name}: ${v} is not a 32-bit integer`)
  }
  return x
}
let done = 0
let lastPct = -10
await parquetRead({
  file, compressors, columns: ['date', 'delay', 'distance', 'origin', 'destination'],
  onChunk: ({ columnName, columnData, rowStart }) => {
    for (let k = 0; k < columnData.length; k++) {
      const row = rowStart + k
      const v = columnData[k]
      if (columnName === 'date') {
        if (typeof v !== 'string' || !/^[0-9]{8}$/.test(v)) throw new Error(`${input}: row ${row}: date '${v}'`)
        cols.date[row] = Number(v)
      } else if (columnName === 'origin' || columnName === 'destination') {
        if (typeof v !== 'string') throw new Error(`${input}: row ${row}, column ${columnName} is '${v}'`)
        let c = codeOf[columnName].get(v)
        if (c === undefined) {
          c = levels[columnName].length
          levels[columnName].push(v)
          codeOf[columnName].set(v, c)
        }
        cols[columnName][row] = c
      } else {
        cols[columnName][row] = toInt(columnName, v, row)
      }
    }
    done += columnData.length
    const pct = Math.floor(100 * done / (5 * n))
    if (pct >= lastPct + 10) {
      process.stderr.write(`  converting flights-3m: ${pct} %\n`)
      lastPct = pct
    }
  },
})
if (done !== 5 * n) throw new Error(`${input}: read ${done} cells, expected ${5 * n}`)
// canonical codes: levels sorted (the order of chunk callbacks must not leak into the file)
for (const name of ['origin', 'destination']) {
  const sorted = [...levels[name]].sort()
  const remap = new Int32Array(sorted.length)
  levels[name].forEach((v, c) => { remap[c] = sorted.indexOf(v) })
  const a = cols[name]
  for (let i = 0; i < n; i++) a[i] = remap[a[i]]
  levels[name] = sorted
}

const header = {
  format: 'approxgp-columns', version: 1, n,
  columns: [
    { name: 'date', type: 'i32', description: 'MMDDHHMM of 2001, departure time' },
    { name: 'delay', type: 'i32', description: 'arrival delay, minutes' },
    { name: 'distance', type: 'i32', description: 'miles' },
    { name: 'origin', type: 'i32', levels: levels.origin },
    { name: 'destination', type: 'i32', levels: levels.destination },
  ],
  source: sourceLabel, source_sha256: sourceSha,
}
const MAGIC = Buffer.from('APXCOLS1', 'ascii')
let headerBytes = Buffer.from(JSON.stringify(header), 'utf8')
const pad = (8 - ((MAGIC.length + 4 + headerBytes.length) % 8)) % 8
headerBytes = Buffer.concat([headerBytes, Buffer.alloc(pad, 0x20)])
const len = Buffer.alloc(4)
len.writeUInt32LE(headerBytes.length, 0)
const tmp = output + '.part'
const fd = openSync(tmp, 'w')
const hash = createHash('sha256')
const put = (b) => { writeSync(fd, b); hash.update(b) }
put(MAGIC); put(len); put(headerBytes)
for (const c of header.columns) {
  const a = cols[c.name]
  // Int32Array is in the platform's byte order; write little-endian explicitly
  const b = Buffer.alloc(a.length * 4)
  for (let i = 0; i < a.length; i++) b.writeInt32LE(a[i], i * 4)
  put(b)
}
closeSync(fd)
renameSync(tmp, output)
console.error(`  wrote ${output}: ${n} rows, ${levels.origin.length} origins,`
  + ` ${levels.destination.length} destinations, sha256 ${hash.digest('hex')}`)
