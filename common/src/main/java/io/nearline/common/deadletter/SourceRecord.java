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
package io.nearline.common.deadletter;

import io.nearline.common.avro.DeadLetter;

/**
 * An input record as the job read it, with who read it: everything its dead letter needs. Every
 * engine builds its dead letters here, from the original key and bytes, so a rejected record looks
 * the same whichever engine rejected it and at whatever stage (intake or store).
 */
public record SourceRecord(String job, String topic, int partition, long offset, byte[] key, byte[] value) {

    /** This record's dead letter, stamped now. */
    public DeadLetter deadLetter(RejectionReason why) {
        return DeadLetters.of(this, why, System.currentTimeMillis());
    }
}
