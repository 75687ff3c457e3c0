package org.bforest;

/** Placeholder while the view is being written (not committed). */
final class LongNavigableMap extends java.util.TreeMap<Long, Long> {
    LongNavigableMap(LongIndex index) {
        throw new UnsupportedOperationException("view not written yet");
    }
}
