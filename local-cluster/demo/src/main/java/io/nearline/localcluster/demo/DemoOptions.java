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
package io.nearline.localcluster.demo;

import io.nearline.jobs.kit.console.DurationConverter;
import io.nearline.localcluster.kit.options.LocalRunOptions;
import io.nearline.localcluster.kit.options.SeedOption;
import io.nearline.localcluster.kit.options.StoreOptions;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options of {@code demo}, shared by the front door and each engine's runner. */
public final class DemoOptions {

    @Mixin
    public LocalRunOptions run;

    @Mixin
    public StoreOptions store;

    @Option(
            names = "--duration",
            defaultValue = "60s",
            converter = DurationConverter.class,
            description =
                    "How long the source of truth commits (default: ${DEFAULT-VALUE}); draining and checking follow.")
    public Duration duration;

    @Option(names = "--keys", defaultValue = "5000", description = "Keys in the table (default: ${DEFAULT-VALUE}).")
    public int keys;

    @Option(names = "--rate", defaultValue = "2000", description = "Commits per second (default: ${DEFAULT-VALUE}).")
    public int rate;

    @Mixin
    public SeedOption seed = new SeedOption();

    @Option(
            names = "--source",
            defaultValue = "simulator",
            description =
                    "The source of truth: simulator (default: Nearline's own, with the injected trouble), postgres "
                            + "or mysql (a real database from Debian's packages, streamed by Debezium's connector in a Kafka "
                            + "Connect worker; racing SQL writers at --rate transactions/s; the verdict against the table).")
    public String source;

    @Option(
            names = "--lose",
            defaultValue = "0s",
            converter = DurationConverter.class,
            description = "With --source postgres or mysql: lose this long a stretch of the change stream while "
                    + "the writers race (PostgreSQL: the replication slot advanced past it; MariaDB: the connector's "
                    + "offsets moved past it), then re-sync every table (bin/nearline resync) before the verdict. "
                    + "Under half of --duration. Default: none.")
    public Duration lose;

    @Option(names = "--no-trouble", description = "Skip the injected job restart, bootstrap and store faults.")
    public boolean noTrouble;

    @Option(
            names = "--no-repair",
            description = "Leave the cache to the job alone: no read-repair and no mid-run snapshot; a networked "
                    + "store's server is frozen but not restarted empty (only a snapshot could re-seed it). Then "
                    + "0 divergent keys is the job's own result.")
    public boolean noRepair;
}
