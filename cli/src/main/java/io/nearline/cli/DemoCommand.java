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
package io.nearline.cli;

import io.nearline.jobs.kit.processes.Home;
import io.nearline.localcluster.demo.DemoOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nearline demo}: the whole stack on this machine, with trouble injected, and the checker's verdict. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Run the whole stack on this machine and check the cache against the source of truth.",
            "%nA real Kafka broker; the source-of-truth simulator committing a skewed workload (deletes, a schema "
                    + "upgrade half-way) and publishing every commit to the CDC topic; the cache-updater job on the "
                    + "chosen engine writing the embedded RocksDB cache (--store couchbase: a CouchbaseMock in a JVM of its "
                    + "own, reached over TCP); read-repair reading the cache and writing back misses. A third of the way in "
                    + "the job is stopped and restarted from its last checkpoint; half-way a snapshot is bootstrapped; two "
                    + "thirds in the store is down for 3 s (on Couchbase: the mock killed, started again empty and "
                    + "re-seeded from a snapshot; five sixths in, frozen for 3 s). Then the source stops, the cache drains, and the divergence "
                    + "checker reports. Exits 0 when no key diverges.%n"
        })
public final class DemoCommand implements Callable<Integer> {

    @Option(
            names = "--engine",
            defaultValue = "flink",
            description = "flink or samza (default: ${DEFAULT-VALUE}); with --source postgres|mysql also connect (the "
                    + "cache sink connector beside Debezium's on the Kafka Connect worker; --store couchbase|redis).")
    String engine;

    @Mixin
    DemoOptions options;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return Home.runOnEngine(engine, "demo", spec, options.run.kafkaJar != null);
    }
}
