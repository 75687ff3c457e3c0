package org.bforest.bench;

/** Placeholder entry point; the benchmark runner replaces it. */
public final class Main {
    public static void main(String[] args) {
        System.out.println("bforest bench: not written yet");
    }
}
