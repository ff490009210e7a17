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

import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.ZooKeeper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The ZooKeeper server {@code cluster up --yarn} starts for Samza's jobs; its address is {@link ZooKeeper}'s. */
public final class LocalZooKeeper {

    private LocalZooKeeper() {}

    /** The server's command line; its configuration and data under {@code dir/zookeeper}. */
    static List<String> daemon(String java, Path dir, Path lib, String address) {
        Path home = dir.resolve("zookeeper").toAbsolutePath();
        try {
            Files.createDirectories(home.resolve("data"));
            Path cfg = Files.writeString(
                    home.resolve("zoo.cfg"),
                    String.join(
                            "\n",
                            "tickTime=2000",
                            "dataDir=" + home.resolve("data"),
                            "clientPort=" + ZooKeeper.PORT,
                            "clientPortAddress=" + address, // the cluster's address only
                            "admin.enableServer=false", // no HTTP admin server on 8080
                            "maxClientCnxns=0",
                            ""),
                    StandardCharsets.UTF_8);
            return List.of(
                    java,
                    Daemons.marker(dir),
                    "-Xmx128m",
                    "-cp",
                    lib + "/*",
                    "org.apache.zookeeper.server.ZooKeeperServerMain",
                    cfg.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
