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
package io.nearline.jobs.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.jobs.cluster.ClusterPrometheus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * A Samza job's exporters get ports of their own: a block clear of every other discovery file's, the
     * same block again for the job's own redeploy; its file names the job as the series' job.
     */
    @Test
    void eachSamzaJobsExportersGetABlockOfPortsOfTheirOwn(@TempDir Path dir) throws IOException {
        Path targets = Files.createDirectories(dir.resolve("prometheus/targets"));
        assertEquals(9500, ClusterPrometheus.portBlock(dir, "samza-a", 2), "nothing taken yet");

        ClusterPrometheus.targets(dir, "samza-a", List.of("10.0.0.1:9500", "10.0.0.1:9501"), Map.of("job", "a"));
        ClusterPrometheus.targets(dir, "connect", List.of("10.0.0.1:9503"));
        assertEquals(9504, ClusterPrometheus.portBlock(dir, "samza-b", 2), "9502 alone is too few for two");
        assertEquals(9502, ClusterPrometheus.portBlock(dir, "samza-b", 1));
        assertEquals(9500, ClusterPrometheus.portBlock(dir, "samza-a", 2), "its own redeploy takes its ports again");

        JsonNode written =
                new ObjectMapper().readTree(targets.resolve("samza-a.json").toFile());
        assertEquals("a", written.get(0).path("labels").path("job").asText());
        assertEquals("samza-a", written.get(0).path("labels").path("process").asText());
        assertEquals(2, written.get(0).path("targets").size());

        ClusterPrometheus.untarget(dir, "samza-a");
        assertEquals(9500, ClusterPrometheus.portBlock(dir, "samza-b", 2), "a stopped job's ports are free again");
    }
}
