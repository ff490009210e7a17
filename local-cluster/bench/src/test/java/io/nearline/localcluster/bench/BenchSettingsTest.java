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
package io.nearline.localcluster.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A bench's --set reaches every engine run it times, with or without --rate. */
class BenchSettingsTest {

    @Test
    void settingsFollowTheRunsOwnArguments() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("write.batch.max-delay", "10ms");
        settings.put("job.container.thread.pool.size", "0");

        assertArrayEquals(
                new String[] {
                    "--raw-consume-baseline",
                    "--set",
                    "write.batch.max-delay=10ms",
                    "--set",
                    "job.container.thread.pool.size=0"
                },
                Benches.withSettings(settings, "--raw-consume-baseline"));
    }

    @Test
    void benchCdcTakesSettingsWithoutRateAndItsOneWriteRunStaysOneWrite() {
        BenchCdcCommand cdc = new BenchCdcCommand();
        new CommandLine(cdc).parseArgs("--set", "write.batch.max-keys=500", "--set", "write.threads=2");

        assertEquals(Map.of("write.batch.max-keys", "500", "write.threads", "2"), cdc.settings.values);
        assertEquals(
                Map.of("write.batch.max-keys", "1", "write.max-in-flight", "1", "write.threads", "2"),
                cdc.oneWritePerEvent());
    }

    @Test
    void benchBootstrapTakesSettings() {
        BenchBootstrapCommand bootstrap = new BenchBootstrapCommand();
        new CommandLine(bootstrap).parseArgs("--set", "job.container.thread.pool.size=0");

        assertEquals(Map.of("job.container.thread.pool.size", "0"), bootstrap.settings.values);
    }

    @Test
    void theSharedOptionsKeepEachBenchsDefaultsAndTakeNewValues() {
        BenchCdcCommand cdc = new BenchCdcCommand();
        BenchJoinCommand join = new BenchJoinCommand();
        BenchBootstrapCommand bootstrap = new BenchBootstrapCommand();
        new CommandLine(cdc).parseArgs();
        new CommandLine(join).parseArgs("--partitions", "8", "--engine", "samza", "--seed", "7");
        new CommandLine(bootstrap).parseArgs("--parallelism", "3");

        assertEquals(2, cdc.run.partitions);
        assertEquals(List.of("flink", "samza"), cdc.run.engines);
        assertEquals(1, cdc.seed.value);
        assertEquals(8, join.run.partitions);
        assertEquals(List.of("samza"), join.run.engines);
        assertEquals(7, join.seed.value);
        assertEquals(2, bootstrap.run.partitions);
        assertEquals(3, bootstrap.run.parallelism);
        String help = new CommandLine(new BenchJoinCommand()).getUsageMessage();
        assertTrue(help.contains("(default: 4)"), help);
    }
}
