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
package io.nearline.lxctestbed.testbed;

import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(
        name = "down",
        mixinStandardHelpOptions = true,
        description = "Stop the testbed: its instances, exactly the processes 'up' started, and its bridge.")
final class TestbedDown implements Callable<Integer> {

    @picocli.CommandLine.Mixin
    TestbedCommand.Where where;

    @Override
    public Integer call() {
        Path dir = where.path();
        List<String> stopped = takeDown(dir);
        boolean gone = !TestbedNetwork.of(dir).exists()
                && TestbedCommand.nodes(dir).stream().allMatch(n -> n.state().equals("STOPPED"));
        System.out.println("testbed down: stopped "
                + (stopped.isEmpty() ? "nothing (none was running)" : String.join(", ", stopped)) + "; bridge "
                + TestbedNetwork.of(dir).bridge() + " removed");
        return gone ? 0 : 1;
    }

    /** Stops every instance and process of the testbed in {@code dir} and removes its bridge. */
    static List<String> takeDown(Path dir) {
        List<String> stopped = new ArrayList<>();
        for (LxcNode node : TestbedCommand.nodes(dir)) {
            Pipe.stopDelay(node); // a host process in the node's namespace: it outlives the node
            if (!node.state().equals("STOPPED")) {
                node.kill();
                stopped.add(node.name());
            }
        }
        if (ClusterFile.exists(dir)) {
            ClusterFile c = ClusterFile.read(dir);
            Daemons.stop(dir, c.processes(), Duration.ofSeconds(20)).stream()
                    .filter(name -> !stopped.contains(name))
                    .forEach(stopped::add);
        }
        TestbedNetwork.of(dir).delete();
        TestbedHeal.clear(dir); // nothing of the testbed is left to be faulted
        return stopped;
    }
}
