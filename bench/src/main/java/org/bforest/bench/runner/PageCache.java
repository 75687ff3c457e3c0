package org.bforest.bench.runner;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Drops a file's pages from the operating system's page cache, so that the next read of it comes
 * from the disk: how the bench measures a cold load and the disk's own read speed on the same
 * footing (a snapshot just written is otherwise read back from memory, at memory speed). Linux's
 * {@code posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)} through the FFM API, on a file whose pages
 * are clean (written and forced, as a snapshot is); elsewhere it does nothing and says so.
 */
public final class PageCache {
    private static final int O_RDONLY = 0;
    private static final int POSIX_FADV_DONTNEED = 4;
    private static final MethodHandle OPEN;
    private static final MethodHandle FADVISE;
    private static final MethodHandle CLOSE;

    static {
        MethodHandle open = null;
        MethodHandle fadvise = null;
        MethodHandle close = null;
        if (System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                Optional<MemorySegment> o = libc.find("open");
                Optional<MemorySegment> f = libc.find("posix_fadvise");
                Optional<MemorySegment> c = libc.find("close");
                if (o.isPresent() && f.isPresent() && c.isPresent()) {
                    // open(2) is variadic: the mode that may follow the flags is not passed
                    open = linker.downcallHandle(o.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                            ValueLayout.ADDRESS, ValueLayout.JAVA_INT), Linker.Option.firstVariadicArg(2));
                    fadvise = linker.downcallHandle(f.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
                    close = linker.downcallHandle(c.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
                }
            } catch (RuntimeException | LinkageError e) {
                open = null;
            }
        }
        OPEN = open;
        FADVISE = fadvise;
        CLOSE = close;
    }

    private PageCache() {
    }

    /** Whether {@link #evict} can drop pages here (Linux, with native access allowed). */
    public static boolean supported() {
        return OPEN != null;
    }

    /**
     * Asks the kernel to drop {@code file}'s cached pages.
     *
     * @return whether it was asked and agreed; {@code false} where that is not possible
     */
    public static boolean evict(Path file) {
        if (OPEN == null) {
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) OPEN.invokeExact(arena.allocateFrom(file.toAbsolutePath().toString()), O_RDONLY);
            if (fd < 0) {
                return false;
            }
            try {
                return (int) FADVISE.invokeExact(fd, 0L, 0L, POSIX_FADV_DONTNEED) == 0;
            } finally {
                int ignored = (int) CLOSE.invokeExact(fd);
            }
        } catch (Throwable e) {
            return false;
        }
    }

    /**
     * Reads {@code file} once, so that its pages are in the page cache: a large snapshot is written
     * with direct I/O and is not there after its save, as a file written through the cache is.
     */
    public static void fill(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.allocateDirect(4 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long at = 0;
            int r;
            while ((r = ch.read(b.clear(), at)) > 0) {
                at += r;
            }
        }
    }
}
