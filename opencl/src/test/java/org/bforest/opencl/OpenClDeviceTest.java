package org.bforest.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class OpenClDeviceTest {

    @Test
    void theDevicesDescribeThemselvesAndTheChoiceFollowsTheRules() {
        OpenClDevice chosen = OpenClTesting.device();
        List<OpenClDevice> all = OpenClDevice.all();
        assertFalse(all.isEmpty());
        for (OpenClDevice d : all) {
            assertFalse(d.name().isBlank(), d.toString());
            assertTrue(d.computeUnits() > 0, d.toString());
            assertTrue(d.maxWorkGroupSize() > 0, d.toString());
            assertTrue(d.globalMemoryBytes() > 0 && d.maxAllocationBytes() > 0, d.toString());
            assertTrue(d.version().startsWith("OpenCL"), d.version());
        }
        // No property: the first GPU, else the first device.
        OpenClDevice expected = all.stream().filter(OpenClDevice::isGpu).findFirst().orElse(all.get(0));
        assertEquals(expected.index(), OpenClDevice.choose(null).index());
        assertEquals(expected.index(), OpenClDevice.choose("  ").index());
        // By index and by a part of the name, in any case.
        assertEquals(0, OpenClDevice.choose("0").index());
        OpenClDevice first = all.get(0);
        assertEquals(0, OpenClDevice.choose(first.name().substring(0, Math.min(5, first.name().length()))
                .toUpperCase(java.util.Locale.ROOT)).index());
        assertTrue(chosen.index() >= 0 && chosen.index() < all.size());
    }

    @Test
    void aDeviceThatIsNotThereIsAClearError() {
        OpenClTesting.device();
        OpenClException byIndex = assertThrows(OpenClException.class, () -> OpenClDevice.choose("99"));
        assertTrue(byIndex.getMessage().contains("no OpenCL device 99"), byIndex.getMessage());
        OpenClException byName = assertThrows(OpenClException.class,
                () -> OpenClDevice.choose("no-such-device-xyz"));
        assertTrue(byName.getMessage().contains("no-such-device-xyz") && byName.getMessage().contains("0: "),
                byName.getMessage());
    }

    private static final List<String[]> NAMES = List.of(
            new String[] {"cpu-haswell-AMD EPYC", "Portable Computing Language"},
            new String[] {"NVIDIA GeForce RTX 4090", "NVIDIA CUDA"},
            new String[] {"NVIDIA H100 80GB HBM3", "NVIDIA CUDA"});

    @Test
    void digitsBelowTheDeviceCountAreAnIndexOtherwiseAPartOfTheName() {
        assertEquals(0, OpenClDevice.select("0", NAMES));
        assertEquals(2, OpenClDevice.select(" 2 ", NAMES));
        assertEquals(1, OpenClDevice.select("4090", NAMES), "no device 4090: the RTX 4090 by name");
        assertEquals(2, OpenClDevice.select("100", NAMES), "H100 by name");
        assertEquals(2, OpenClDevice.select("80", NAMES), "80GB by name");
        assertEquals(-1, OpenClDevice.select("99", NAMES));
        assertEquals(-1, OpenClDevice.select("99999999999", NAMES));
    }

    @Test
    void aHashAndDigitsAreAlwaysAnIndex() {
        assertEquals(1, OpenClDevice.select("#1", NAMES));
        assertEquals(2, OpenClDevice.select("# 2", NAMES));
        assertEquals(-1, OpenClDevice.select("#3", NAMES));
        assertEquals(-1, OpenClDevice.select("#4090", NAMES), "#4090 is an index, never a name");
        assertEquals(-1, OpenClDevice.select("#", NAMES));
        assertEquals(-1, OpenClDevice.select("#x", NAMES));
    }

    @Test
    void namesMatchAnyPartOfTheDeviceOrThePlatformCaseIgnored() {
        assertEquals(1, OpenClDevice.select("rtx", NAMES));
        assertEquals(1, OpenClDevice.select("cuda", NAMES), "the first of the platform's devices");
        assertEquals(0, OpenClDevice.select("portable", NAMES));
        assertEquals(2, OpenClDevice.select("h100", NAMES));
        assertEquals(-1, OpenClDevice.select("mi300", NAMES));
    }

    @Test
    void aHashIndexChoosesARealDevice() {
        OpenClTesting.device();
        assertEquals(0, OpenClDevice.choose("#0").index());
        OpenClException e = assertThrows(OpenClException.class, () -> OpenClDevice.choose("#99"));
        assertTrue(e.getMessage().contains("no OpenCL device #99: there are"), e.getMessage());
    }
}
