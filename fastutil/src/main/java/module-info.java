/**
 * bforest's fastutil bridge: any {@code org.bforest.LongIndex} as a live fastutil
 * {@code Long2LongSortedMap} ({@link org.bforest.fastutil.FastutilViews#asLong2LongSortedMap}), so
 * that code written against fastutil takes a bforest tree unchanged. The bridge lives in its own
 * module so that {@code org.bforest} (core) keeps no dependency.
 *
 * <p>Both modules it reads are transitive: the view's signatures name {@code LongIndex} and
 * fastutil's types. fastutil 8.5.15 has no module descriptor; its jar names the automatic module
 * {@code it.unimi.dsi.fastutil} in its manifest ({@code Automatic-Module-Name}).
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // fastutil has no module descriptor
module org.bforest.fastutil {
    requires transitive org.bforest;
    requires transitive it.unimi.dsi.fastutil;

    exports org.bforest.fastutil;
}
