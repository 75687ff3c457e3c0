package org.bforest.bench.cli;

/** How the progress display on stderr looks. */
public enum ProgressMode {
    /** A single updating bar when stderr is a terminal, plain lines otherwise. */
    AUTO,
    /** The single updating bar. */
    BAR,
    /** One line per step. */
    PLAIN,
    /** Nothing. */
    OFF
}
