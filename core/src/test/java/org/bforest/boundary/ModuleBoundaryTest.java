package org.bforest.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.bforest.BMinusTreeBuilder;
import org.bforest.BPlusTreeBuilder;
import org.bforest.BSTreeBuilder;
import org.bforest.BSTreeIndex;
import org.bforest.CsbTreeBuilder;
import org.bforest.CsbVariant;
import org.bforest.Indexes;
import org.bforest.LongCursor;
import org.bforest.LongEntryConsumer;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;
import org.bforest.NativeLongIndex;
import org.junit.jupiter.api.Test;

/**
 * What users can reach: the {@code org.bforest} module exports only {@code org.bforest}
 * to everyone, the internals only to the project's own modules; no public signature of the API
 * mentions an internal type; the tree classes are final and package-private.
 */
class ModuleBoundaryTest {
    private static ModuleDescriptor descriptor() throws Exception {
        Path classes = Path.of(LongIndex.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ModuleReference ref = ModuleFinder.of(classes).find("org.bforest")
                .orElseThrow(() -> new AssertionError("no module org.bforest in " + classes));
        return ref.descriptor();
    }

    @Test
    void onlyTheApiPackageIsExportedToEveryone() throws Exception {
        ModuleDescriptor d = descriptor();
        Set<String> open = d.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of("org.bforest"), open, "packages exported to everyone");
        for (ModuleDescriptor.Exports e : d.exports()) {
            if (e.isQualified() && !e.source().equals("org.bforest.bstree")) {
                assertEquals(Set.of("org.bforest.bench", "org.bforest.opencl"), e.targets(),
                        e.source() + " is exported to the project's own modules only");
            }
        }
        // The hybrid tree (opencl) runs the BS-tree's inner levels: bstree goes to that module
        // alone, where its only public type is the narrow door to them.
        assertTrue(d.exports().stream().filter(e -> e.source().equals("org.bforest.bstree"))
                .allMatch(e -> e.targets().equals(Set.of("org.bforest.opencl"))), "org.bforest.bstree goes to opencl only");
        for (String trees : List.of("org.bforest.bplus", "org.bforest.bminus", "org.bforest.csb")) {
            assertTrue(d.exports().stream().noneMatch(e -> e.source().equals(trees)),
                    "the trees' package " + trees + " is exported to nobody");
        }
        assertTrue(d.opens().isEmpty() && !d.isOpen(), "nothing is open to reflection");
    }

    @Test
    void publicApiSignaturesMentionOnlyApiAndJdkTypes() {
        List<String> leaks = new ArrayList<>();
        for (Class<?> c : List.of(LongIndex.class, NativeLongIndex.class, LongCursor.class, LongEntryVisitor.class,
                LongEntryConsumer.class, Indexes.class, BSTreeIndex.class, BSTreeBuilder.class,
                BSTreeBuilder.Compression.class, BMinusTreeBuilder.class, CsbTreeBuilder.class, BPlusTreeBuilder.class,
                CsbVariant.class)) {
            for (Method m : c.getMethods()) {
                List<Type> types = new ArrayList<>(List.of(m.getGenericParameterTypes()));
                types.add(m.getGenericReturnType());
                for (Type t : types) {
                    String name = t.getTypeName();
                    if (name.matches(".*org\\.bforest\\.[a-z][a-z0-9]*\\..*")) { // a type in a package below org.bforest
                        leaks.add(c.getSimpleName() + "." + m.getName() + " uses " + name);
                    }
                }
            }
            assertFalse(c.getPackageName().contains("bstree") || c.getPackageName().contains("bplus")
                    || c.getPackageName().contains("bminus") || c.getPackageName().contains("csb"), c + " is API");
        }
        assertEquals(List.of(), leaks, "internal types in public API signatures");
    }

    @Test
    void theBsTreesPackageHasOnePublicTypeTheSharedInnerLevels() throws Exception {
        for (String name : List.of("BSTree", "CBSTree", "GappedTree", "InnerLevels", "Slots", "TreeChecker")) {
            assertFalse(Modifier.isPublic(Class.forName("org.bforest.bstree." + name).getModifiers()), name);
        }
        Class<?> shared = Class.forName("org.bforest.bstree.SharedInnerLevels");
        assertTrue(Modifier.isPublic(shared.getModifiers()) && Modifier.isFinal(shared.getModifiers()));
    }

    @Test
    void treeClassesAreFinalAndPackagePrivate() throws Exception {
        for (String name : List.of("org.bforest.bstree.BSTree", "org.bforest.bstree.CBSTree",
                "org.bforest.bplus.BPlusTree", "org.bforest.bminus.BMinusTree", "org.bforest.csb.CsbTree")) {
            Class<?> c = Class.forName(name);
            assertFalse(Modifier.isPublic(c.getModifiers()), name + " is not public");
            assertTrue(Modifier.isFinal(c.getModifiers()), name + " is final");
        }
        // what Indexes hands out is one of them, seen through the API type only
        assertEquals("BSTree", Indexes.bsTree().getClass().getSimpleName());
        assertEquals("CBSTree", Indexes.cbsTree().getClass().getSimpleName());
        assertEquals("BPlusTree", Indexes.bPlusTree().getClass().getSimpleName());
        assertEquals("BMinusTree", Indexes.bMinusTree().getClass().getSimpleName());
        for (CsbVariant v : CsbVariant.values()) {
            assertEquals("CsbTree", Indexes.csbTree(v).getClass().getSimpleName());
        }
    }
}
