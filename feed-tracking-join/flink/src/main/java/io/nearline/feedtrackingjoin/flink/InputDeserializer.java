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

import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.InputClock;
import io.nearline.feedtrackingjoin.core.JoinPartitions;
import io.nearline.feedtrackingjoin.core.RequestState;
import io.nearline.feedtrackingjoin.core.RequestStateCodec;
import io.nearline.feedtrackingjoin.core.TrackingCodec;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decodes each record where it is read, so the source's watermarks (per split) use its event time,
 * and judges it against the allowed lateness of its own partition ({@link InputClock}), in the
 * partition's order. A valid record goes on in the join's own pending-event format, which the join
 * stores as it is (the Avro record is decoded once, here); an invalid one keeps its raw bytes and
 * where it came from, for its dead letter. One instance per source reader.
 */
final class InputDeserializer implements KafkaRecordDeserializationSchema<TrackingInput> {

    private final String brokerTopic;
    private final long allowedLatenessMillis;
    private transient InputClock clock;

    InputDeserializer(String brokerTopic, long allowedLatenessMillis) {
        this.brokerTopic = brokerTopic;
        this.allowedLatenessMillis = allowedLatenessMillis;
    }

    @Override
    public void open(DeserializationSchema.InitializationContext context) {
        clock = new InputClock(allowedLatenessMillis); // lateness only; Flink makes the watermark
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> r, Collector<TrackingInput> out) {
        TrackingInput in = new TrackingInput();
        in.partition = r.partition();
        in.offset = r.offset();
        in.arrivedAt = System.currentTimeMillis();
        boolean broker = r.topic().equals(brokerTopic);
        TrackingCodec.Decoded decoded =
                broker ? TrackingCodec.decodeBroker(r.value()) : TrackingCodec.decodeFragment(r.value());
        if (decoded.ok()) {
            Events.Input e = decoded.event();
            in.kind = broker ? TrackingInput.BROKER : TrackingInput.FRAGMENT;
            in.requestId = e.requestId();
            in.ts = e.ts();
            in.inTime = clock.admit(JoinPartitions.input(r.topic(), r.partition()), e.ts(), in.arrivedAt);
            in.value = RequestStateCodec.encode(new RequestState.Pending(e, in.arrivedAt));
        } else {
            in.kind = TrackingInput.INVALID;
            in.topic = r.topic();
            in.key = r.key();
            in.value = r.value();
            in.ts = Long.MIN_VALUE;
            in.rejectionCode = decoded.rejection().code();
            in.rejectionDetail = decoded.rejection().detail();
        }
        out.collect(in);
    }

    @Override
    public TypeInformation<TrackingInput> getProducedType() {
        return TypeInformation.of(TrackingInput.class);
    }
}
