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
package io.nearline.localcluster.joinreference;

import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.JoinPartitions;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A replay without an engine: the events split into partitions as a replay sends them (each
 * partition keeps the files' order), the partitions read in an order {@code interleaving} picks,
 * the join run on {@link LocalJoin}. Any interleaving must give the same outputs; the engines must
 * give them too (eager: the same {@link JoinOutputs#repeatsFolded()}).
 */
public final class CoreJoinReplay {

    private CoreJoinReplay() {}

    public static JoinOutputs run(
            List<Events.Fragment> index,
            List<Events.BrokerEvent> broker,
            int partitions,
            long windowMillis,
            long allowedLatenessMillis,
            Random interleaving) {
        return run(
                index,
                broker,
                partitions,
                new LocalJoin(
                        windowMillis,
                        allowedLatenessMillis,
                        JoinSettings.EmitComplete.WATERMARK,
                        System::currentTimeMillis),
                interleaving);
    }

    /** The same run through {@code join}, a {@link LocalJoin} of any window, lateness and emission mode. */
    public static JoinOutputs run(
            List<Events.Fragment> index,
            List<Events.BrokerEvent> broker,
            int partitions,
            LocalJoin join,
            Random interleaving) {
        return run(index, broker, partitions, join, interleaving, () -> {});
    }

    /** The same, calling {@code afterEachEvent} once each event has been offered (to look at the join's state). */
    public static JoinOutputs run(
            List<Events.Fragment> index,
            List<Events.BrokerEvent> broker,
            int partitions,
            LocalJoin join,
            Random interleaving,
            Runnable afterEachEvent) {

        List<String> names = new ArrayList<>();
        List<ArrayDeque<Events.Input>> queues = new ArrayList<>();
        for (String topic : List.of("index", "broker")) {
            for (int p = 0; p < partitions; p++) {
                names.add(JoinPartitions.input(topic, p));
                queues.add(new ArrayDeque<>());
                join.expect(names.get(names.size() - 1));
            }
        }
        index.forEach(
                f -> queues.get(JoinPartitions.of(f.requestId(), partitions)).add(f));
        broker.forEach(b -> queues.get(partitions + JoinPartitions.of(b.requestId(), partitions))
                .add(b));
        for (int i = 0; i < queues.size(); i++) {
            if (queues.get(i).isEmpty()) {
                join.end(names.get(i));
            }
        }
        List<Integer> open = new ArrayList<>();
        for (int i = 0; i < queues.size(); i++) {
            if (!queues.get(i).isEmpty()) {
                open.add(i);
            }
        }
        while (!open.isEmpty()) {
            int pick = interleaving.nextInt(open.size());
            int q = open.get(pick);
            join.offer(names.get(q), queues.get(q).poll());
            afterEachEvent.run();
            if (queues.get(q).isEmpty()) {
                open.remove(pick);
                join.end(names.get(q));
            }
        }
        if (join.liveStates() != 0) {
            throw new IllegalStateException(join.liveStates() + " requests still hold state after the end of input");
        }
        return JoinOutputs.of(join.joined, join.orphans, join.late);
    }
}
