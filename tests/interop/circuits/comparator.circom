pragma circom 2.0.0;

include "circomlib/circuits/comparators.circom";

// below = (x < bound) for 16-bit values, bound public: a bit decomposition (about twenty
// constraints, domain 32), small enough to keep its zkey as a checked-in vector.
template Below() {
    signal input x;
    signal input bound;
    signal output below;
    component lt = LessThan(16);
    lt.in[0] <== x;
    lt.in[1] <== bound;
    below <== lt.out;
}

component main {public [bound]} = Below();
