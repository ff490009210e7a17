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
package io.nearline.localcluster.cluster;

import io.nearline.jobs.cluster.ClusterPrometheus;
import io.nearline.jobs.cluster.Daemons;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Debian's Prometheus server started by {@code cluster up --prometheus}, on the cluster's address, evaluating
 * the shipped rules ({@code jobs/monitoring/nearline-rules.yaml}). Its targets, and how a deploy adds one,
 * are {@link ClusterPrometheus}'s.
 */
public final class LocalPrometheus {

    static final Path SERVER = Path.of("/usr/bin/prometheus");

    private LocalPrometheus() {}

    /** Why the cluster cannot run Prometheus here, or empty. */
    static Optional<String> unavailableReason() {
        return Files.isExecutable(SERVER)
                ? Optional.empty()
                : Optional.of("Debian's prometheus package is not installed (apt-get install prometheus)");
    }

    /** Writes the server's configuration in {@code DIR/prometheus}; returns the command that starts it. */
    static List<String> prepare(Path dir, Path home, String address) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("prometheus"));
        Files.createDirectories(conf.resolve("targets"));
        String config = String.join(
                "\n",
                "# Written by 'nearline cluster up --prometheus'.",
                "global:",
                "  scrape_interval: 5s",
                "  evaluation_interval: 5s",
                "rule_files:",
                "  - '" + home.resolve("jobs/monitoring/nearline-rules.yaml") + "'",
                "scrape_configs:",
                "  - job_name: nearline",
                "    file_sd_configs:",
                "      - files: ['" + conf.resolve("targets") + "/*.json']",
                "        refresh_interval: 5s",
                "");
        Files.writeString(conf.resolve("prometheus.yml"), config, StandardCharsets.UTF_8);
        return List.of(
                SERVER.toString(),
                "--config.file=" + conf.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + conf.resolve("data"),
                "--storage.tsdb.retention.time=2d",
                "--web.listen-address=" + address + ":" + ClusterPrometheus.PORT,
                // the cluster's marker, by which 'down' knows the process as its own: in the page's title
                "--web.page-title=Nearline " + Daemons.marker(dir));
    }
}
