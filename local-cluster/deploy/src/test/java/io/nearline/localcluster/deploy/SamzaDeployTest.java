package io.nearline.localcluster.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SamzaDeployTest {

    /** The shipped package configs: a run with a state of its own gets new topics for every store. */
    @Test
    void aRunOfItsOwnNamesEveryStoresChangelogAndTheJobIdAfresh() throws IOException {
        for (String shipped : List.of(
                "../../feed-tracking-join/samza/conf/tracking-join.properties",
                "../../cache-updater/samza/conf/cache-updater.properties")) {
            Map<String, String> config = SamzaDeploy.read(Path.of(shipped));
            SamzaDeploy.Plan plan = new SamzaDeploy.Plan(null, config, null, List.of(), null);

            Map<String, String> own = SamzaDeploy.ownState(plan, "drill-x");

            assertEquals("drill-x", own.get("job.id"), shipped);
            long stores = config.keySet().stream()
                    .filter(k -> k.startsWith("stores.") && k.endsWith(".changelog"))
                    .count();
            assertTrue(stores > 0, shipped + " has no logged store");
            config.forEach((k, v) -> {
                if (k.startsWith("stores.") && k.endsWith(".changelog")) {
                    String fresh = own.get(k);
                    assertTrue(fresh.startsWith("kafka.drill-x-"), k + " -> " + fresh);
                    assertFalse(fresh.equals(v), k);
                }
            });
            assertEquals(stores + 1, own.size(), shipped);
        }
    }
}
