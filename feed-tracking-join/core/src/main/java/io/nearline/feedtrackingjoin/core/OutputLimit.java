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

import io.nearline.common.avro.DeadLetter;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.SourceRecord;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;

/**
 * The largest output the join sends ({@code join.output.max-bytes}). A topic refuses a record over
 * its limit, and a job that failed on one would fail on it again after every restart; so an output
 * over the limit goes to the dead letters instead: reason {@code RECORD_TOO_LARGE}, the output topic
 * as its source (no partition or offset: it was never written), the request id as its key, its first
 * 64 KiB as its value.
 */
public record OutputLimit(String job, int maxBytes) implements Serializable {

    public static OutputLimit of(JoinSettings settings) {
        return new OutputLimit(settings.consumerGroup(), settings.outputMaxBytes());
    }

    /** Null when {@code value}, an output for {@code topic}, fits; else the dead letter that takes its place. */
    public DeadLetter check(String topic, String requestId, byte[] value) {
        if (value.length <= maxBytes) {
            return null;
        }
        return DeadLetters.of(
                new SourceRecord(
                        job, topic, -1, -1, requestId.getBytes(StandardCharsets.UTF_8), DeadLetters.head(value)),
                new TrackingRejection(
                        TrackingRejection.RECORD_TOO_LARGE,
                        "an output of " + value.length + " bytes for " + topic + " is over join.output.max-bytes ("
                                + maxBytes + ")"),
                System.currentTimeMillis());
    }
}
