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
package io.nearline.cacheupdater.flink;

import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.RejectionReason;
import io.nearline.common.deadletter.SourceRecord;
import org.apache.flink.util.OutputTag;

/**
 * The job's dead letters, a side output of each step that can refuse a record (the decodes, the
 * write), gathered into the dead-letter sink: each one the record as read, with the reason.
 */
final class DeadLetterOutput {

    static final OutputTag<byte[]> TAG = new OutputTag<>("dead-letters") {};

    private DeadLetterOutput() {}

    /** The dead letter of {@code source}, refused for {@code why}, as the sink writes it. */
    static byte[] of(SourceRecord source, RejectionReason why) {
        return DeadLetters.encode(source.deadLetter(why));
    }
}
