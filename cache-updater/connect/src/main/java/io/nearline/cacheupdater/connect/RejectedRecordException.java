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
package io.nearline.cacheupdater.connect;

import io.nearline.common.deadletter.RejectionReason;
import org.apache.kafka.connect.errors.DataException;

/**
 * Why the connector dead-lettered a record, as Connect's errant-record reporter carries it: its
 * message, {@code REASON: detail} with the reason codes the jobs use, becomes the dead letter's
 * {@code __connect.errors.exception.message} header, and this class's name its
 * {@code __connect.errors.exception.class.name}.
 */
public final class RejectedRecordException extends DataException {

    private static final long serialVersionUID = 1L;

    public RejectedRecordException(RejectionReason why) {
        super(why.code() + ": " + why.detail());
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this; // a verdict on a record, not a fault in the code: no stack trace in the dead letter
    }
}
