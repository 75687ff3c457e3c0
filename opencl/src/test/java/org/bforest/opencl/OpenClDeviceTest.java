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
}
