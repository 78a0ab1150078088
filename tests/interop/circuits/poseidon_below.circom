pragma circom 2.0.0;

include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/comparators.circom";

// A few hundred constraints from circomlib (compile with --O2): digest = Poseidon(x·y) as a public
// output and below = (x < bound) for 16-bit values with bound a public input.
template PoseidonBelow() {
    signal input x;
    signal input y;
    signal input bound;
    signal output digest;
    signal output below;

    signal xy;
    xy <== x * y;
    component h = Poseidon(1);
    h.inputs[0] <== xy;
    digest <== h.out;

    component lt = LessThan(16);
    lt.in[0] <== x;
    lt.in[1] <== bound;
    below <== lt.out;
}

component main {public [bound]} = PoseidonBelow();
