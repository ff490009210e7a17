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
package io.nearline.feedtrackingjoin.flink;

/**
 * One record from the index or broker topic as the source decoded it (a Flink POJO): its event
 * time, whether it was in time for its partition, when it arrived, and the event as the join stores
 * it while it waits ({@link io.nearline.feedtrackingjoin.core.RequestStateCodec}: bytes keep Kryo out).
 * Invalid records carry the rejection, their topic, key and raw value instead.
 */
public class TrackingInput {
    public static final int FRAGMENT = 0;
    public static final int BROKER = 1;
    public static final int INVALID = 2;

    public int kind;
    public String requestId;
    public long ts;
    public long arrivedAt;
    public boolean inTime;
    public String topic;
    public int partition;
    public long offset;
    public byte[] key;
    public byte[] value;
    public String rejectionCode;
    public String rejectionDetail;

    public TrackingInput() {}
}
