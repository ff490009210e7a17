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

import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.DirOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(
        name = "down",
        mixinStandardHelpOptions = true,
        description = "Stop a local cluster: exactly the processes 'up' started, and its network.")
final class ClusterDown implements Callable<Integer> {

    @Mixin
    DirOption where;

    Path dir;

    @Override
    public Integer call() {
        dir = where.path();
        ClusterFile c = ClusterFile.read(dir);
        // the processes deploys started beside the cluster (the verifier) are Nearline's, on any cluster
        List<String> services = Daemons.stop(dir, Daemons.services(dir), Duration.ofSeconds(10));
        if (c.namespace() == null) {
            // addresses only (cluster init): those clusters are not Nearline's to stop, nor their slots to drop
            System.out.println("cluster down: " + dir + " names clusters Nearline did not start (cluster init): "
                    + (services.isEmpty() ? "nothing stopped" : "stopped only " + String.join(", ", services)));
            return 0;
        }
        // the Connect worker first, so that no connector holds a slot; then the slots go, so that the
        // database kept in DIR does not hold WAL back for a reader that is gone
        Map<String, Long> processes = new LinkedHashMap<>(c.processes());
        List<String> stopped = new ArrayList<>(services);
        if (processes.containsKey("connect")) {
            stopped.addAll(Daemons.stop(dir, Map.of("connect", processes.remove("connect")), Duration.ofSeconds(20)));
        }
        List<String> slots = new ArrayList<>();
        c.databases()
                .forEach(
                        (kind, section) -> slots.addAll(ClusterDatabase.of(kind).dropInactiveSlots(section)));
        stopped.addAll(Daemons.stop(dir, processes, Duration.ofSeconds(20)));
        stopped.addAll(Daemons.stopContainers(dir, Duration.ofSeconds(10)));
        PrivateNetwork.of(dir).delete();
        long left = c.processes().values().stream()
                .filter(pid -> Daemons.alive(pid, dir))
                .count();
        System.out.println("cluster down: stopped "
                + (stopped.isEmpty() ? "nothing (none was running)" : String.join(", ", stopped))
                + (slots.isEmpty() ? "" : "; replication slot(s) " + String.join(", ", slots) + " dropped")
                + "; network " + PrivateNetwork.of(dir).namespace() + " removed");
        return left == 0 ? 0 : 1;
    }
}
