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
package io.nearline.jobs.cluster;

/**
 * A single ZooKeeper server beside YARN's ResourceManager, for Flink's high availability on YARN: it
 * keeps where a Flink job's last checkpoint is, so the next application attempt after a JobManager
 * dies restores the job from it (and commits the Kafka transactions that checkpoint holds). It runs
 * from the YARN daemons' classpath, which carries ZooKeeper for the ResourceManager.
 */
public final class ZooKeeper {

    public static final int PORT = 2181;

    private ZooKeeper() {}

    public static String quorum(String address) {
        return address + ":" + PORT;
    }
}
