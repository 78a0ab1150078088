pragma circom 2.0.0;

// out = a·b·c: one public output (out), two public inputs (b, c), one private input (a), one
// internal signal. Wires: 0 = ONE, 1 = out, 2 = b, 3 = c, 4 = a, 5 = ab.
template Multiplier3() {
    signal input a;
    signal input b;
    signal input c;
    signal output out;
    signal ab;
    ab <== a * b;
    out <== ab * c;
}

component main {public [b, c]} = Multiplier3();
