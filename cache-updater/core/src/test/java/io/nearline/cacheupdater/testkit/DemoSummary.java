package io.nearline.cacheupdater.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reads a demo's {@code --summary-json} and asserts what every engine's demo must show. */
public final class DemoSummary {

    private DemoSummary() {
    }

    public static JsonNode assertConverged(Path summary, boolean troubleInjected) throws IOException {
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        assertEquals(0, s.get("divergentKeys").asLong(), s.toString());
        assertTrue(s.get("keysChecked").asLong() > 0, s.toString());
        assertTrue(s.get("eventsApplied").asLong() > 0, s.toString());
        assertTrue(s.get("readRepairs").asLong() > 0, "read-repair never wrote: " + s);
        if (troubleInjected) {
            assertEquals(1, s.get("restarts").asInt(), s.toString());
            assertTrue(s.get("outageRefusedCalls").asLong() > 0, "the outage hit nothing: " + s);
        }
        return s;
    }
}
