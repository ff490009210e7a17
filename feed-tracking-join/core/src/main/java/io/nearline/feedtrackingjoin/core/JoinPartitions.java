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
package io.nearline.feedtrackingjoin.core;

/**
 * Which partition a request's events go to in a replay: the same for the index and the broker
 * topic, so one task sees all of a request (co-partitioning; in production Kafka's default
 * partitioner on the requestId key does the same).
 */
public final class JoinPartitions {

    private JoinPartitions() {}

    public static int of(String requestId, int partitions) {
        return Math.floorMod(requestId.hashCode(), partitions);
    }

    /** The name of an input partition, as the clocks and the reference run call it. */
    public static String input(String topic, int partition) {
        return topic + "/" + partition;
    }
}
