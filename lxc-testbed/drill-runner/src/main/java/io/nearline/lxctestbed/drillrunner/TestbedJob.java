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
package io.nearline.lxctestbed.drillrunner;

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.YarnRest;
import io.nearline.jobs.deploy.Descriptor;
import io.nearline.jobs.deploy.FlinkYarn;
import io.nearline.jobs.deploy.SamzaDeploy;
import io.nearline.lxctestbed.testbed.LxcNode;
import io.nearline.lxctestbed.testbed.TestbedCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The drill's job on the testbed's YARN: every node up, leftovers of earlier runs stopped, the job's application and its containers awaited. */
final class TestbedJob {

    private TestbedJob() {}

    /** Every node RUNNING to YARN, waiting a minute for one that an earlier drill started again. */
    static void requireAllNodesUp(ClusterFile c, Path testbed) {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        Map<String, String> yarn = YarnRest.nodes(c.yarnWeb());
        while (System.nanoTime() < deadline && yarn.values().stream().anyMatch(s -> !s.equals("RUNNING"))) {
            Daemons.sleep(1000);
            yarn = YarnRest.nodes(c.yarnWeb());
        }
        for (LxcNode n : TestbedCommand.nodes(testbed)) {
            if (!"RUNNING".equals(yarn.get(n.address()))) {
                throw new ClusterException("the testbed in " + testbed + " is not fully up (" + n.name() + " is "
                        + yarn.getOrDefault(n.address(), "not registered") + "): 'bin/nearline testbed up --dir "
                        + testbed + "'");
            }
        }
    }

    /** A drill job left running (by an interrupted run, or one that could not start) holds the testbed's room. */
    static void stopLeftovers(ClusterFile c, Descriptor d) {
        for (String id = runningApp(c, d); id != null; id = runningApp(c, d)) {
            System.out.println("  stopping " + id + " (" + d.name() + "), left by an earlier or failed run");
            YarnRest.kill(c.yarnWeb(), id);
        }
    }

    /** The YARN application running the descriptor's job, or null: Samza's by its name, Flink's by its job's. */
    static String runningApp(ClusterFile c, Descriptor d) {
        Optional<String> id = d.engine().equals("flink")
                ? FlinkYarn.running(c, d.name()).map(FlinkYarn.Running::appId)
                : SamzaDeploy.running(c.yarnWeb(), d.name()).map(YarnRest.App::id);
        return id.orElse(null);
    }

    static String awaitApp(ClusterFile c, Descriptor d) {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            String id = runningApp(c, d);
            if (id != null && YarnRest.app(c.yarnWeb(), id).state().equals("RUNNING")) {
                return id;
            }
            Daemons.sleep(500);
        }
        throw ClusterException.failed(d.name() + " did not reach RUNNING on YARN within 2 minutes");
    }

    /** Until the job has its application master and at least one worker, and they stay for 5 s. */
    static void awaitContainers(String appId) {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        long steadySince = 0;
        while (System.nanoTime() < deadline) {
            List<JobContainers.Container> running = JobContainers.of(appId);
            boolean ready = running.stream().anyMatch(JobContainers.Container::applicationMaster)
                    && running.stream().anyMatch(x -> !x.applicationMaster());
            if (!ready) {
                steadySince = 0;
            } else if (steadySince == 0) {
                steadySince = System.nanoTime();
            } else if (System.nanoTime() - steadySince > Duration.ofSeconds(5).toNanos()) {
                return;
            }
            Daemons.sleep(500);
        }
        throw ClusterException.failed(appId + " did not get its containers within 3 minutes");
    }
}
