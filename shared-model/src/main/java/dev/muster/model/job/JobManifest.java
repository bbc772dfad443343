package dev.muster.model.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import dev.muster.model.json.MusterJson;

/**
 * A job's manifest kept as its JSON and parsed again only when needed: a queued job may wait for days, and
 * parsed it takes about five times the heap. Written into JSON it is the job itself (an object, not a string),
 * so records that held a parsed job read the same.
 */
@JsonSerialize(using = JobManifest.AsJson.class)
public final class JobManifest {

    private final byte[] json;

    private JobManifest(byte[] json) {
        this.json = json;
    }

    public static JobManifest of(PyTorchJob job) {
        return new JobManifest(MusterJson.toBytes(job));
    }

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static JobManifest of(JsonNode job) {
        return new JobManifest(job.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The job, parsed anew: callers get their own copy. */
    public PyTorchJob job() {
        return MusterJson.fromBytes(json, PyTorchJob.class);
    }

    /** Writes the manifest as the JSON object it is. */
    static final class AsJson extends StdSerializer<JobManifest> {

        AsJson() {
            super(JobManifest.class);
        }

        @Override
        public void serialize(JobManifest manifest, JsonGenerator generator, SerializerProvider provider) throws IOException {
            generator.writeRawValue(new String(manifest.json, StandardCharsets.UTF_8));
        }
    }
}
