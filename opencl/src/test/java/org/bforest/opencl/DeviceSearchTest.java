package org.bforest.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bforest.opencl.DeviceSearch.QueryOrder;
import org.junit.jupiter.api.Test;

/** A search setting is checked when it is made, and says what was wrong. */
class DeviceSearchTest {
    @Test
    void theDefaultLeavesTheLanesToTheDevice() {
        assertEquals(new DeviceSearch(QueryOrder.PARTIAL, 1, DeviceSearch.DEVICE_LANES), DeviceSearch.DEFAULT);
        assertEquals(DeviceSearch.DEVICE_LANES, new DeviceSearch(QueryOrder.SORTED, 8).lanes());
    }

    @Test
    void lanesFromOneToTheMostAreTaken() {
        for (int lanes : new int[] {1, 2, 7, DeviceSearch.CPU_LANES, DeviceSearch.MAX_LANES}) {
            assertEquals(lanes, new DeviceSearch(QueryOrder.AS_GIVEN, 1, lanes).lanes());
        }
        // one lane (or the device's choice) goes with a search group
        assertEquals(1, new DeviceSearch(QueryOrder.AS_GIVEN, 16, 1).lanes());
    }

    @Test
    void badSettingsSayWhatWasWrong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DeviceSearch(QueryOrder.PARTIAL, 1, DeviceSearch.MAX_LANES + 1));
        assertTrue(e.getMessage().contains("lanes are 1 to " + DeviceSearch.MAX_LANES), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DeviceSearch(QueryOrder.PARTIAL, 1, -1));
        e = assertThrows(IllegalArgumentException.class, () -> new DeviceSearch(QueryOrder.PARTIAL, 8, 4));
        assertTrue(e.getMessage().contains("takes one query"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new DeviceSearch(QueryOrder.PARTIAL, 3));
        assertTrue(e.getMessage().contains("a search group is 1, 2, 4"), e.getMessage());
        assertThrows(NullPointerException.class, () -> new DeviceSearch(null, 1, 1));
    }
}
