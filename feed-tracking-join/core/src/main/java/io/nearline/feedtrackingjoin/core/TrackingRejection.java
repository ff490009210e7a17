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

import io.nearline.common.deadletter.RejectionReason;

/** Why a tracking input record cannot be joined; it goes to the dead-letter topic with this reason. */
public record TrackingRejection(String code, String detail) implements RejectionReason {

    /** Not an Avro record of the topic's schema. */
    public static final String UNDECODABLE = "UNDECODABLE";
    /** An empty request id, node, or fan-out; a negative event time. */
    public static final String INVALID = "INVALID";
    /** An output over {@code join.output.max-bytes}, dead-lettered instead of sent (see {@link OutputLimit}). */
    public static final String RECORD_TOO_LARGE = "RECORD_TOO_LARGE";
}
