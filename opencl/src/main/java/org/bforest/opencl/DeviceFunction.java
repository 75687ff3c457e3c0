package org.bforest.opencl;

import java.util.Objects;
import java.util.function.LongBinaryOperator;

/**
 * A function of an entry, {@code (key, value) -> long}, run on the device over every entry of a
 * {@link DeviceIndex} ({@link DeviceIndex#mapReduce}, {@link DeviceIndex#countIf},
 * {@link DeviceIndex#transformValues}): the body of an OpenCL C function of the fixed signature
 *
 * <pre>{@code
 * static inline long bforest_map(long key, long value, long p0, long p1) { <body> }
 * }</pre>
 *
 * plus the same function in Java. {@code p0} and {@code p1} are two parameters handed to the
 * kernel at each launch ({@link #of(String, long, long, LongBinaryOperator)}), so that functions
 * that differ only in constants (a range's bounds) share one compiled program. A predicate is true
 * where the function is not 0.
 *
 * <pre>{@code
 * DeviceFunction f = DeviceFunction.of("return value * 3 + key;", (k, v) -> v * 3 + k);
 * long total = tree.mapReduce(f);                                  // the sum of 3v + k, on the device
 * long inRange = tree.countIf(DeviceFunction.keyBetween(100, 200)); // keys in [100, 200)
 * tree.transformValues(DeviceFunction.affine(2, 1));               // every value becomes 2v + 1
 * }</pre>
 *
 * <h2>Why both an OpenCL C body and a Java function</h2>
 * The trees pad their pages' unused slots with the key {@code Long.MAX_VALUE}, so an entry of
 * that key cannot live in a page: it is kept on the host, out of band, as in every bforest tree.
 * The device never sees it, so the host applies the function to it, with the Java form. The two
 * must compute the same thing; the tree cannot check that. Mind that in OpenCL C, as in C,
 * signed overflow is undefined: where the arithmetic may overflow, compute in {@code ulong} and
 * cast back (as {@link #affine} does), which wraps as Java's {@code long} does.
 *
 * <h2>Compilation</h2>
 * The body is compiled for the device on first use, with the visit kernels, and the program is
 * kept for the device's life, one per distinct body: later calls with the same body compile
 * nothing. So build bodies that differ only in constants from {@code p0}/{@code p1}, not by
 * pasting the constants into the text. A body that does not compile throws
 * {@link OpenClException} with the compiler's log (line numbers count from the body's first
 * line) at the call that uses it, and the tree is unchanged.
 *
 * <p>Immutable; safe to share between threads and trees.
 */
public final class DeviceFunction implements LongBinaryOperator {
    /** The entry's value: {@link DeviceIndex#mapReduce} of it is the sum of the values. */
    public static final DeviceFunction VALUE = of("return value;", (k, v) -> v);
    /** The entry's key: {@link DeviceIndex#mapReduce} of it is the sum of the keys. */
    public static final DeviceFunction KEY = of("return key;", (k, v) -> k);
    /** 1 for every entry: {@link DeviceIndex#countIf} of it is the size. */
    public static final DeviceFunction ONE = of("return 1;", (k, v) -> 1);

    private static final String BETWEEN_KEYS = "return key >= p0 && key < p1;";
    private static final String BETWEEN_VALUES = "return value >= p0 && value < p1;";
    private static final String AFFINE = "return (long) ((ulong) value * (ulong) p0 + (ulong) p1);";

    private final String body;
    private final long p0;
    private final long p1;
    private final LongBinaryOperator host;

    private DeviceFunction(String body, long p0, long p1, LongBinaryOperator host) {
        this.body = body;
        this.p0 = p0;
        this.p1 = p1;
        this.host = host;
    }

    /**
     * A function from the body of {@code long bforest_map(long key, long value, long p0, long p1)}
     * in OpenCL C (its parameters {@code p0} and {@code p1} are 0 here) and its Java equivalent.
     *
     * @param body the statements of the function's body, e.g. {@code "return value * 3 + key;"}
     * @param host the same function in Java, applied to the entry of key {@code Long.MAX_VALUE},
     *             which the tree keeps on the host
     * @return the function
     * @throws NullPointerException     if {@code body} or {@code host} is null
     * @throws IllegalArgumentException if {@code body} is blank
     */
    public static DeviceFunction of(String body, LongBinaryOperator host) {
        return of(body, 0, 0, host);
    }

    /**
     * A function from the body of {@code long bforest_map(long key, long value, long p0, long p1)}
     * in OpenCL C, the values of its parameters {@code p0} and {@code p1}, and its Java equivalent
     * (which takes them from its own scope).
     *
     * @param body the statements of the function's body, e.g. {@code "return key >= p0 && key < p1;"}
     * @param p0   the value of {@code p0} in the body
     * @param p1   the value of {@code p1} in the body
     * @param host the same function in Java, with these parameters, applied to the entry of key
     *             {@code Long.MAX_VALUE}, which the tree keeps on the host
     * @return the function
     * @throws NullPointerException     if {@code body} or {@code host} is null
     * @throws IllegalArgumentException if {@code body} is blank
     */
    public static DeviceFunction of(String body, long p0, long p1, LongBinaryOperator host) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(host, "host");
        if (body.isBlank()) {
            throw new IllegalArgumentException("the OpenCL C body of bforest_map is blank: give its statements,"
                    + " e.g. \"return value;\"");
        }
        return new DeviceFunction(body, p0, p1, host);
    }

    /**
     * The predicate {@code from <= key < to} (a half-open range, as {@code rangeCount}'s): its
     * {@link DeviceIndex#countIf} is the keys in the range. Every range shares one program.
     *
     * @param from the least key in the range
     * @param to   the first key past it
     * @return the predicate
     */
    public static DeviceFunction keyBetween(long from, long to) {
        return new DeviceFunction(BETWEEN_KEYS, from, to, (k, v) -> k >= from && k < to ? 1 : 0);
    }

    /**
     * The predicate {@code from <= value < to}.
     *
     * @param from the least value in the range
     * @param to   the first value past it
     * @return the predicate
     */
    public static DeviceFunction valueBetween(long from, long to) {
        return new DeviceFunction(BETWEEN_VALUES, from, to, (k, v) -> v >= from && v < to ? 1 : 0);
    }

    /**
     * {@code value * mul + add}, wrapping on overflow as Java's {@code long} arithmetic does: for
     * {@link DeviceIndex#transformValues}, the paper's scalar operation over every value. Every
     * {@code mul} and {@code add} share one program.
     *
     * @param mul the factor
     * @param add the term added after it
     * @return the function
     */
    public static DeviceFunction affine(long mul, long add) {
        return new DeviceFunction(AFFINE, mul, add, (k, v) -> v * mul + add);
    }

    /** The OpenCL C body, as given. */
    public String body() {
        return body;
    }

    /** The value of {@code p0} in the body. */
    public long p0() {
        return p0;
    }

    /** The value of {@code p1} in the body. */
    public long p1() {
        return p1;
    }

    /**
     * The function in Java (the equivalent given with the body), as the host applies it to the
     * entry of key {@code Long.MAX_VALUE}.
     */
    @Override
    public long applyAsLong(long key, long value) {
        return host.applyAsLong(key, value);
    }

    @Override
    public String toString() {
        return "DeviceFunction[" + body + (p0 != 0 || p1 != 0 ? ", p0=" + p0 + ", p1=" + p1 : "") + "]";
    }
}
