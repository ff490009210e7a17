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
