// Writes independent BLS12-381 known-answer values computed by @noble/curves (pinned in
// package.json) to stdout, in the line format read by tests/ec/test_noble_vectors.c.
// Deterministic: every scalar comes from SHA-256 of a fixed label, so reruns give identical output.
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { readFileSync } from 'node:fs';

const nobleVersion = JSON.parse(
  readFileSync(new URL('./node_modules/@noble/curves/package.json', import.meta.url), 'utf8')
).version;
const { Fp, Fp2, Fp12, Fr } = bls12_381.fields;
const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const P = Fp.ORDER;
const R = Fr.ORDER;

const out = [];
const line = (...toks) => out.push(toks.join(' '));
const comment = (s) => out.push('# ' + s);

const hex = (u8) => Buffer.from(u8).toString('hex');
const be = (n, len) => n.toString(16).padStart(2 * len, '0');
const fromHex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));

// Deterministic "random" value below m: SHA-256 of a label, widened to 64 bytes, reduced mod m.
function det(label, m) {
  const enc = new TextEncoder();
  const a = sha256(enc.encode('cuzk-noble-vectors/' + label + '/0'));
  const b = sha256(enc.encode('cuzk-noble-vectors/' + label + '/1'));
  return BigInt('0x' + hex(a) + hex(b)) % m;
}

// noble only encodes the canonical infinity (0 : 1 : 0), so normalize sums that cancel.
const canon = (pt) => (pt.is0() ? pt.constructor.ZERO : pt);
const g1c = (pt) => hex(canon(pt).toBytes(true));
const g1u = (pt) => hex(canon(pt).toBytes(false));
const g2c = g1c;
const g2u = g1u;
const mulG1 = (k) => G1.BASE.multiplyUnsafe(k);
const mulG2 = (k) => G2.BASE.multiplyUnsafe(k);

// Fp12 as noble serializes it: 12 big-endian 48-byte Fp values in tower order
// c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1, c1.c0.c0, ..., c1.c2.c1
// (Fp12 = c0 + c1·w, Fp6 = c0 + c1·v + c2·v², Fp2 = c0 + c1·u).
const gtHex = (f) => hex(Fp12.toBytes(f));

comment(`BLS12-381 vectors from @noble/curves ${nobleVersion}; regenerate with tests/vectors/README.md.`);
comment('Every line: <tag> <fields...>, hex without 0x, points in zcash/blst encoding, scalars 32-byte big-endian.');

// --- generators and infinity ---
comment('g1_gen|g2_gen <compressed> <uncompressed>; g1_inf|g2_inf likewise');
line('g1_gen', g1c(G1.BASE), g1u(G1.BASE));
line('g2_gen', g2c(G2.BASE), g2u(G2.BASE));
line('g1_inf', g1c(G1.ZERO), g1u(G1.ZERO));
line('g2_inf', g2c(G2.ZERO), g2u(G2.ZERO));

// --- scalar multiples of the generators ---
comment('g1_mul|g2_mul <k> <k·G compressed> <k·G uncompressed>');
const scalars = [1n, 2n, 3n, 5n, 0xffffffffn, 0xd201000000010000n, R - 1n, R - 2n, (R - 1n) / 2n];
for (let i = 0; scalars.length < 29; i++) scalars.push(det('scalar/' + i, R));
for (const k of scalars) line('g1_mul', be(k, 32), g1c(mulG1(k)), g1u(mulG1(k)));
for (const k of scalars) line('g2_mul', be(k, 32), g2c(mulG2(k)), g2u(mulG2(k)));

// --- additions: a·G + b·G, including doubling and P + (−P) ---
comment('g1_add|g2_add <a> <b> <(a·G + b·G) compressed>; inputs are a·G and b·G computed independently');
const addPairs = [
  [det('add/a0', R), det('add/b0', R)],
  [det('add/a1', R), det('add/b1', R)],
  [det('add/a2', R), det('add/a2', R)], // doubling
  [det('add/a3', R), R - det('add/a3', R)], // P + (−P) = infinity
  [1n, R - 1n],
  [R - 1n, R - 1n],
];
for (const [a, b] of addPairs) line('g1_add', be(a, 32), be(b, 32), g1c(mulG1(a).add(mulG1(b))));
for (const [a, b] of addPairs) line('g2_add', be(a, 32), be(b, 32), g2c(mulG2(a).add(mulG2(b))));

// --- invalid encodings: each one is checked to be rejected by noble's decoder ---
comment('g1_bad|g2_bad <expected status> <label> <bytes>; 48/96 (G1) or 96/192 (G2) bytes select the decoder');
function mustReject(Point, bytes, label) {
  let threw = false;
  try {
    Point.fromBytes(bytes);
  } catch (e) {
    threw = true;
  }
  if (!threw) throw new Error('noble accepted the invalid encoding ' + label);
}
function bad(tag, Point, status, label, bytes) {
  mustReject(Point, bytes, label);
  line(tag, status, label, hex(bytes));
}
const withByte0 = (h, f) => {
  const b = fromHex(h);
  b[0] = f(b[0]);
  return b;
};
const isSquareFp = (v) => Fp.is0(v) || Fp.eql(Fp.pow(v, (P - 1n) / 2n), Fp.ONE);
const isSquareFp2 = (v) => {
  // Norm map: v is a square in Fp2 iff its norm c0² + c1² is a square in Fp.
  const n = Fp.add(Fp.sqr(v.c0), Fp.sqr(v.c1));
  return isSquareFp(n);
};
const B1 = 4n;
const B2 = Fp2.fromBigTuple([4n, 4n]);

{
  const gen = G1.BASE;
  const c = g1c(gen);
  const u = g1u(gen);
  // x with no point on the curve
  let xo = 1n;
  while (isSquareFp(Fp.add(Fp.pow(xo, 3n), B1))) xo++;
  const offc = fromHex(be(xo, 48));
  offc[0] |= 0x80;
  bad('g1_bad', G1, 'NOT_ON_CURVE', 'compressed_x_not_on_curve', offc);
  // on-curve point outside the subgroup (compressed and uncompressed)
  let xs = 1n;
  for (;;) {
    const rhs = Fp.add(Fp.pow(xs, 3n), B1);
    if (isSquareFp(rhs)) {
      const y = Fp.sqrt(rhs);
      const pt = G1.fromAffine({ x: xs, y });
      if (!pt.isTorsionFree()) {
        const cb = fromHex(be(xs, 48));
        cb[0] |= 0x80;
        if (y * 2n > P) cb[0] |= 0x20;
        bad('g1_bad', G1, 'NOT_IN_SUBGROUP', 'compressed_not_in_subgroup', cb);
        bad('g1_bad', G1, 'NOT_IN_SUBGROUP', 'uncompressed_not_in_subgroup', fromHex(be(xs, 48) + be(y, 48)));
        break;
      }
    }
    xs++;
  }
  // uncompressed point off the curve (y + 1)
  const { x, y } = gen.toAffine();
  bad('g1_bad', G1, 'NOT_ON_CURVE', 'uncompressed_y_off_curve', fromHex(be(x, 48) + be(Fp.add(y, 1n), 48)));
  // non-canonical coordinates of valid subgroup points
  bad('g1_bad', G1, 'NOT_CANONICAL', 'uncompressed_y_plus_p', fromHex(be(x, 48) + be(y + P, 48)));
  bad('g1_bad', G1, 'NOT_CANONICAL', 'uncompressed_x_equals_p', fromHex(be(P, 48) + be(2n, 48)));
  for (let i = 0; ; i++) {
    const k = det('noncanon-g1/' + i, R);
    const pt = mulG1(k).toAffine();
    if (pt.x + P < 1n << 381n) {
      const cb = fromHex(be(pt.x + P, 48));
      cb[0] |= 0x80;
      if (pt.y * 2n > P) cb[0] |= 0x20;
      bad('g1_bad', G1, 'NOT_CANONICAL', 'compressed_x_plus_p', cb);
      break;
    }
  }
  // flags
  bad('g1_bad', G1, 'BAD_FLAGS', 'compressed_without_c_flag', withByte0(c, (b) => b & 0x1f));
  bad('g1_bad', G1, 'BAD_FLAGS', 'uncompressed_with_c_flag', withByte0(u, (b) => b | 0x80));
  bad('g1_bad', G1, 'BAD_FLAGS', 'uncompressed_with_s_flag', withByte0(u, (b) => b | 0x20));
  bad('g1_bad', G1, 'BAD_FLAGS', 'compressed_inf_with_s_flag', fromHex('e0' + '00'.repeat(47)));
  bad('g1_bad', G1, 'BAD_FLAGS', 'uncompressed_inf_with_s_flag', fromHex('60' + '00'.repeat(95)));
  bad('g1_bad', G1, 'BAD_FLAGS', 'compressed_inf_nonzero_x', fromHex('c0' + '00'.repeat(46) + '01'));
  bad('g1_bad', G1, 'BAD_FLAGS', 'uncompressed_inf_nonzero_y', fromHex('40' + '00'.repeat(94) + '01'));
  bad('g1_bad', G1, 'NOT_ON_CURVE', 'uncompressed_zero_without_inf_flag', fromHex('00'.repeat(96)));
}

{
  const gen = G2.BASE;
  const c = g2c(gen);
  const u = g2u(gen);
  const fp2Hex = (v) => be(v.c1, 48) + be(v.c0, 48); // zcash order: c1 || c0
  const sign2 = (v) => (v.c1 !== 0n ? v.c1 * 2n > P : v.c0 * 2n > P);
  let xo = 1n;
  while (isSquareFp2(Fp2.add(Fp2.pow(Fp2.fromBigTuple([xo, 0n]), 3n), B2))) xo++;
  const offc = fromHex(fp2Hex(Fp2.fromBigTuple([xo, 0n])));
  offc[0] |= 0x80;
  bad('g2_bad', G2, 'NOT_ON_CURVE', 'compressed_x_not_on_curve', offc);
  let xs = 1n;
  for (;;) {
    const xv = Fp2.fromBigTuple([xs, 0n]);
    const rhs = Fp2.add(Fp2.pow(xv, 3n), B2);
    if (isSquareFp2(rhs)) {
      const y = Fp2.sqrt(rhs);
      const pt = G2.fromAffine({ x: xv, y });
      if (!pt.isTorsionFree()) {
        const cb = fromHex(fp2Hex(xv));
        cb[0] |= 0x80;
        if (sign2(y)) cb[0] |= 0x20;
        bad('g2_bad', G2, 'NOT_IN_SUBGROUP', 'compressed_not_in_subgroup', cb);
        bad('g2_bad', G2, 'NOT_IN_SUBGROUP', 'uncompressed_not_in_subgroup', fromHex(fp2Hex(xv) + fp2Hex(y)));
        break;
      }
    }
    xs++;
  }
  const { x, y } = gen.toAffine();
  bad('g2_bad', G2, 'NOT_ON_CURVE', 'uncompressed_y_off_curve', fromHex(fp2Hex(x) + fp2Hex(Fp2.add(y, Fp2.ONE))));
  bad('g2_bad', G2, 'NOT_CANONICAL', 'uncompressed_y_c0_plus_p',
      fromHex(fp2Hex(x) + be(y.c1, 48) + be(y.c0 + P, 48)));
  bad('g2_bad', G2, 'NOT_CANONICAL', 'uncompressed_y_c1_plus_p',
      fromHex(fp2Hex(x) + be(y.c1 + P, 48) + be(y.c0, 48)));
  {
    const cb = fromHex(be(x.c1, 48) + be(x.c0 + P, 48));
    cb[0] |= 0x80;
    if (sign2(y)) cb[0] |= 0x20;
    bad('g2_bad', G2, 'NOT_CANONICAL', 'compressed_x_c0_plus_p', cb);
  }
  for (let i = 0; ; i++) {
    const k = det('noncanon-g2/' + i, R);
    const pt = mulG2(k).toAffine();
    if (pt.x.c1 + P < 1n << 381n) {
      const cb = fromHex(be(pt.x.c1 + P, 48) + be(pt.x.c0, 48));
      cb[0] |= 0x80;
      if (sign2(pt.y)) cb[0] |= 0x20;
      bad('g2_bad', G2, 'NOT_CANONICAL', 'compressed_x_c1_plus_p', cb);
      break;
    }
  }
  bad('g2_bad', G2, 'BAD_FLAGS', 'compressed_without_c_flag', withByte0(c, (b) => b & 0x1f));
  bad('g2_bad', G2, 'BAD_FLAGS', 'uncompressed_with_c_flag', withByte0(u, (b) => b | 0x80));
  bad('g2_bad', G2, 'BAD_FLAGS', 'uncompressed_with_s_flag', withByte0(u, (b) => b | 0x20));
  bad('g2_bad', G2, 'BAD_FLAGS', 'compressed_inf_with_s_flag', fromHex('e0' + '00'.repeat(95)));
  bad('g2_bad', G2, 'BAD_FLAGS', 'uncompressed_inf_with_s_flag', fromHex('60' + '00'.repeat(191)));
  bad('g2_bad', G2, 'BAD_FLAGS', 'compressed_inf_nonzero_x', fromHex('c0' + '00'.repeat(94) + '01'));
  bad('g2_bad', G2, 'BAD_FLAGS', 'uncompressed_inf_nonzero_y', fromHex('40' + '00'.repeat(190) + '01'));
  bad('g2_bad', G2, 'NOT_ON_CURVE', 'uncompressed_zero_without_inf_flag', fromHex('00'.repeat(192)));
}

// --- field arithmetic samples (canonical big-endian) ---
comment('fp_mul <a> <b> <a·b mod p>; fp_inv <a> <a^-1 mod p>; fr_mul, fr_inv likewise mod r');
for (let i = 0; i < 6; i++) {
  const a = det('fp/a' + i, P);
  const b = i === 0 ? P - 1n : det('fp/b' + i, P);
  line('fp_mul', be(a, 48), be(b, 48), be(Fp.mul(a, b), 48));
  line('fp_inv', be(a, 48), be(Fp.inv(a), 48));
}
for (let i = 0; i < 6; i++) {
  const a = det('fr/a' + i, R);
  const b = i === 0 ? R - 1n : det('fr/b' + i, R);
  line('fr_mul', be(a, 32), be(b, 32), be(Fr.mul(a, b), 32));
  line('fr_inv', be(a, 32), be(Fr.inv(a), 32));
}

// --- pairings ---
comment('pairing <a> <b> <a·G1 uncompressed> <b·G2 uncompressed> <e(a·G1, b·G2) as 576 bytes>');
comment('Fp12 bytes: 12 big-endian Fp values in the order c0.c0.c0 c0.c0.c1 c0.c1.c0 c0.c1.c1 c0.c2.c0 c0.c2.c1');
comment('c1.c0.c0 c1.c0.c1 c1.c1.c0 c1.c1.c1 c1.c2.c0 c1.c2.c1 of Fp12 = c0 + c1·w over Fp6 = c0 + c1·v + c2·v²');
comment('over Fp2 = c0 + c1·u (w² = v, v³ = 1 + u, u² = −1).');
const pairs = [
  [1n, 1n],
  [2n, 3n],
  [R - 1n, 1n],
  [det('pair/a0', R), det('pair/b0', R)],
  [det('pair/a1', R), det('pair/b1', R)],
];
for (const [a, b] of pairs) {
  const p1 = mulG1(a);
  const q2 = mulG2(b);
  line('pairing', be(a, 32), be(b, 32), g1u(p1), g2u(q2), gtHex(bls12_381.pairing(p1, q2)));
}
comment('end');
process.stdout.write(out.join('\n') + '\n');
