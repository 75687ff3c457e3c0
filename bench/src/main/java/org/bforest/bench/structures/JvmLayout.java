package org.bforest.bench.structures;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * Object sizes on the running JVM, for the memory estimates of the peers (which have no
 * accounting of their own). HotSpot's layout: an object is a header (12 bytes with compressed
 * class pointers, 8 with {@code -XX:+UseCompactObjectHeaders}, 16 without either), then its
 * fields (a reference is 4 bytes with compressed oops, else 8), rounded up to the object
 * alignment (8 bytes by default). A {@code Long} is therefore 24 bytes (16 with compact headers).
 */
public final class JvmLayout {
    public static final JvmLayout CURRENT = detect();

    private final int header;
    private final int ref;
    private final int align;

    JvmLayout(int header, int ref, int align) {
        this.header = header;
        this.ref = ref;
        this.align = align;
    }

    private static JvmLayout detect() {
        boolean compactHeaders = flag("UseCompactObjectHeaders", false);
        boolean compressedClass = flag("UseCompressedClassPointers", true);
        boolean compressedOops = flag("UseCompressedOops", true);
        int align = 8;
        try {
            align = Integer.parseInt(bean().getVMOption("ObjectAlignmentInBytes").getValue());
        } catch (RuntimeException e) {
            // keep the default
        }
        int header = compactHeaders ? 8 : compressedClass ? 12 : 16;
        return new JvmLayout(header, compressedOops ? 4 : 8, align);
    }

    private static HotSpotDiagnosticMXBean bean() {
        return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    }

    private static boolean flag(String name, boolean dflt) {
        try {
            return Boolean.parseBoolean(bean().getVMOption(name).getValue());
        } catch (RuntimeException e) {
            return dflt;
        }
    }

    /** The size of an object with {@code refs} reference fields and {@code primitiveBytes} more. */
    public long object(int refs, int primitiveBytes) {
        return alignUp(header + (long) refs * ref + primitiveBytes);
    }

    /** A boxed {@code Long}. */
    public long boxedLong() {
        return object(0, 8);
    }

    /** A {@code long[n]}: header, length word, elements (8-byte aligned). */
    public long longArray(long n) {
        long base = (header + 4 + 7) & ~7L;
        return alignUp(base + 8 * n);
    }

    public String describe() {
        return "object header " + header + " B, reference " + ref + " B, alignment " + align + " B";
    }

    private long alignUp(long bytes) {
        return (bytes + align - 1) / align * align;
    }
}
