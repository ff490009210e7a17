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
package io.nearline.localcluster.joinreplay;

import io.nearline.common.testkit.Utf8Lines;
import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.TrackingCodec;
import io.nearline.feedtrackingjoin.core.TrackingText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The two input files of a join replay, read line by line: the events in file order, and the lines
 * that are not events (with file, line number and reason) for the dead-letter topic.
 */
public record JoinInputs(List<Events.Fragment> fragments, List<Events.BrokerEvent> brokers, List<BadLine> badLines) {

    /** A line that is not an event of its file's kind. */
    public record BadLine(Path file, long number, String text, String reason) {}

    public static JoinInputs read(Path indexFile, Path brokerFile) {
        List<Events.Fragment> fragments = new ArrayList<>();
        List<Events.BrokerEvent> brokers = new ArrayList<>();
        List<BadLine> bad = new ArrayList<>();
        readLines(indexFile, bad, line -> fragments.add(TrackingText.fragment(line)));
        readLines(brokerFile, bad, line -> brokers.add(TrackingText.broker(line)));
        return new JoinInputs(fragments, brokers, bad);
    }

    private static void readLines(Path file, List<BadLine> bad, Consumer<String> parse) {
        List<String> lines = Utf8Lines.read(file);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            try {
                parse.accept(line);
            } catch (IllegalArgumentException e) {
                bad.add(new BadLine(file, i + 1, line, e.getMessage()));
            }
        }
    }

    /** The events a job accepts: what the topic's decoder would not dead-letter. */
    /** Only the bad lines (a live run sends them to the dead letters up front). */
    public JoinInputs badLinesOnly() {
        return new JoinInputs(List.of(), List.of(), badLines);
    }

    public JoinInputs valid() {
        List<Events.Fragment> f = fragments.stream()
                .filter(e ->
                        TrackingCodec.decodeFragment(TrackingCodec.encode(e)).ok())
                .toList();
        List<Events.BrokerEvent> b = brokers.stream()
                .filter(e -> TrackingCodec.decodeBroker(TrackingCodec.encode(e)).ok())
                .toList();
        return new JoinInputs(f, b, badLines);
    }

    public long events() {
        return fragments.size() + brokers.size();
    }
}
