/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
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

    /** The job's refusal in the Samza client's output keeps every problem, not the first line alone. */
    @Test
    void aRefusalInTheClientsOutputKeepsEveryProblem() {
        String output = String.join(
                "\n",
                "INFO starting the client",
                "Exception in thread \"main\" io.nearline.common.config.ConfigException: Invalid configuration (2 problems):",
                "  - 'metrics.reporters' is not a setting of this job",
                "  - 'cache.ttl' must be above 0",
                "\tat io.nearline.cacheupdater.samza.CacheUpdaterApp.describe(CacheUpdaterApp.java:48)");
        assertEquals(
                java.util.Optional.of("Invalid configuration (2 problems):\n"
                        + "  - 'metrics.reporters' is not a setting of this job\n"
                        + "  - 'cache.ttl' must be above 0"),
                SamzaDeploy.configError(output));
        assertFalse(SamzaDeploy.configError("INFO all well").isPresent());
    }
}
