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
package io.nearline.engines.flinkkit;

import java.io.IOException;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A bounded {@link KafkaSource} that also ends after a restore from a checkpoint or savepoint. The
 * connector's restored enumerator never tells its readers that no more splits will come (FLINK-31006:
 * its discovery finds every partition already known and returns before setting the flag), so the
 * readers finish their splits and wait forever. Here, a restored enumerator whose initial discovery
 * had finished signals it to each reader once the reader has its splits: in a bounded source with
 * every partition known, none can come later. Unbounded sources, and fresh starts, are the
 * connector's own behaviour.
 */
public final class RestorableBoundedKafkaSource<T>
        implements Source<T, KafkaPartitionSplit, KafkaSourceEnumState>, ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final KafkaSource<T> kafka;

    public RestorableBoundedKafkaSource(KafkaSource<T> kafka) {
        this.kafka = kafka;
    }

    @Override
    public Boundedness getBoundedness() {
        return kafka.getBoundedness();
    }

    @Override
    public SourceReader<T, KafkaPartitionSplit> createReader(SourceReaderContext context) throws Exception {
        return kafka.createReader(context);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> createEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context) throws Exception {
        return kafka.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restoreEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context, KafkaSourceEnumState state) throws Exception {
        SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restored = kafka.restoreEnumerator(context, state);
        boolean allKnown = getBoundedness() == Boundedness.BOUNDED && state.initialDiscoveryFinished();
        return allKnown ? new SignallingEnumerator(restored, context) : restored;
    }

    @Override
    public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
        return kafka.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaSourceEnumState> getEnumeratorCheckpointSerializer() {
        return kafka.getEnumeratorCheckpointSerializer();
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return kafka.getProducedType();
    }

    /** The restored enumerator, plus "no more splits" to each reader after its splits are assigned. */
    private static final class SignallingEnumerator
            implements SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> {
        private final SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restored;
        private final SplitEnumeratorContext<KafkaPartitionSplit> context;

        SignallingEnumerator(
                SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restored,
                SplitEnumeratorContext<KafkaPartitionSplit> context) {
            this.restored = restored;
            this.context = context;
        }

        @Override
        public void start() {
            restored.start();
        }

        @Override
        public void handleSplitRequest(int subtask, String host) {
            restored.handleSplitRequest(subtask, host);
        }

        @Override
        public void addSplitsBack(List<KafkaPartitionSplit> splits, int subtask) {
            restored.addSplitsBack(splits, subtask);
        }

        @Override
        public void addReader(int subtask) {
            restored.addReader(subtask); // assigns the reader's pending splits, in order before the signal
            context.signalNoMoreSplits(subtask);
        }

        @Override
        public KafkaSourceEnumState snapshotState(long checkpointId) throws Exception {
            return restored.snapshotState(checkpointId);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            restored.notifyCheckpointComplete(checkpointId);
        }

        @Override
        public void handleSourceEvent(int subtask, SourceEvent event) {
            restored.handleSourceEvent(subtask, event);
        }

        @Override
        public void close() throws IOException {
            restored.close();
        }
    }
}
