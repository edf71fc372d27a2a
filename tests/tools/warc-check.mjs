// Checks a WARC file with an independent parser (warcio.js, webrecorder):
// every record parses; its Content-Length is its block length; the required
// WARC/1.1 fields are there; WARC-Block-Digest is the SHA-1 of the block and,
// for responses, WARC-Payload-Digest the SHA-1 of the body after the HTTP
// head; and, parsed a second time as HTTP, every response has a status line
// and a body of its declared Content-Length.
//   node warc-check.mjs FILE.warc[.gz]   → prints a summary; exit 1 on any problem
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { WARCParser } from 'warcio';

const file = process.argv[2];
if (!file) {
  console.error('usage: node warc-check.mjs FILE.warc[.gz]');
  process.exit(2);
}

function base32(bytes) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0, value = 0, out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  while (out.length % 8) out += '=';
  return out;
}
const sha1 = (bytes) => 'sha1:' + base32(createHash('sha1').update(bytes).digest());

function headEnd(block) {
  for (let i = 0; i + 3 < block.length; i++)
    if (block[i] === 13 && block[i + 1] === 10 && block[i + 2] === 13 && block[i + 3] === 10) return i + 4;
  return -1;
}

const problems = [];
const types = {};
let records = 0;
const required = ['WARC-Record-ID', 'WARC-Date', 'WARC-Type', 'Content-Length'];

for await (const record of new WARCParser(createReadStream(file), { parseHttp: false })) {
  records++;
  const h = record.warcHeaders.headers;
  const where = `record ${records} (${record.warcType} ${record.warcTargetURI ?? ''})`;
  types[record.warcType] = (types[record.warcType] ?? 0) + 1;
  if (record.warcHeaders.protocol !== 'WARC/1.1') problems.push(`${where}: version ${record.warcHeaders.protocol}`);
  for (const f of required) if (!h.get(f)) problems.push(`${where}: no ${f}`);
  const block = await record.readFully(false);
  if (Number(h.get('Content-Length')) !== block.length)
    problems.push(`${where}: Content-Length ${h.get('Content-Length')} but block of ${block.length} bytes`);
  if (h.get('WARC-Block-Digest') !== sha1(block))
    problems.push(`${where}: WARC-Block-Digest ${h.get('WARC-Block-Digest')} but the block hashes to ${sha1(block)}`);
  if (record.warcType === 'revisit') {
    // WARC 1.1 §6.7: a profile, the record it refers to, an HTTP head only.
    const profile = h.get('WARC-Profile') ?? '';
    if (!/^http:\/\/netpreserve\.org\/warc\/1\.1\/revisit\/(identical-payload-digest|server-not-modified)$/.test(profile))
      problems.push(`${where}: WARC-Profile '${profile}'`);
    if (!h.get('WARC-Refers-To-Target-URI') || !h.get('WARC-Refers-To-Date'))
      problems.push(`${where}: no WARC-Refers-To-Target-URI or WARC-Refers-To-Date`);
    if (profile.endsWith('identical-payload-digest') && !h.get('WARC-Payload-Digest'))
      problems.push(`${where}: identical-payload-digest without WARC-Payload-Digest`);
    if (headEnd(block) !== block.length) problems.push(`${where}: the block is not an HTTP head alone`);
  }
  if (record.warcType === 'response') {
    const end = headEnd(block);
    if (end < 0) problems.push(`${where}: no end of HTTP head`);
    else if (h.get('WARC-Payload-Digest') !== sha1(block.subarray(end)))
      problems.push(`${where}: WARC-Payload-Digest does not match the body`);
  }
}

let responses = 0;
for await (const record of new WARCParser(createReadStream(file), { parseHttp: true })) {
  if (record.warcType !== 'response') continue;
  responses++;
  const where = `response ${responses} (${record.warcTargetURI})`;
  const http = record.httpHeaders;
  if (!http || !http.statusCode) {
    problems.push(`${where}: no HTTP status line`);
    continue;
  }
  const body = await record.readFully(false);
  const declared = http.headers.get('Content-Length');
  if (declared !== null && Number(declared) !== body.length)
    problems.push(`${where}: HTTP Content-Length ${declared} but body of ${body.length} bytes`);
}

console.log(JSON.stringify({ file, records, types, problems: problems.length }));
for (const p of problems.slice(0, 20)) console.error(p);
process.exit(problems.length ? 1 : 0);
