package org.bforest.bench.workloads;

/** The operation codes of an {@link Operations} stream (one byte each). */
public final class Op {
    /** Look a present key up. */
    public static final byte LOOKUP = 0;
    /** Insert a new key (its value is {@code Values.of(key)}). */
    public static final byte INSERT = 1;
    /** Delete a present key. */
    public static final byte DELETE = 2;
    /** Visit every entry in {@code [key, end)}. */
    public static final byte SCAN = 3;

    /** How many codes there are; codes are 0 .. COUNT-1. */
    public static final int COUNT = 4;

    private static final String[] NAMES = {"lookup", "insert", "delete", "scan"};

    private Op() {
    }

    public static String name(int code) {
        return NAMES[code];
    }
}
