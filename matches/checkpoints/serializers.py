"""Response shapes of /api/checkpoints/ and /api/bundles/ (for the OpenAPI schema)."""

from rest_framework import serializers


class CheckpointSerializer(serializers.Serializer):
    tree_size = serializers.IntegerField()
    root_hash = serializers.CharField(help_text="hex")
    timestamp = serializers.CharField(help_text="ISO 8601 UTC, exactly as signed")
    signature = serializers.CharField(help_text="Ed25519, base64, over audit.checkpoint.body(...)")
    key_id = serializers.CharField()


class SignedCheckpointSerializer(CheckpointSerializer):
    public_key = serializers.CharField(help_text="Ed25519 public key, base64 of the raw 32 bytes")


class KeySerializer(serializers.Serializer):
    algorithm = serializers.CharField()
    public_key = serializers.CharField()
    key_id = serializers.CharField()


class CheckpointListSerializer(KeySerializer):
    results = CheckpointSerializer(many=True)


class InclusionSerializer(serializers.Serializer):
    stream = serializers.CharField()
    seq = serializers.IntegerField()
    head_hash = serializers.CharField()
    leaf_index = serializers.IntegerField()
    leaf_hash = serializers.CharField()
    tree_size = serializers.IntegerField()
    proof = serializers.ListField(child=serializers.CharField(), help_text="RFC 9162 audit path, hex")
    checkpoint = CheckpointSerializer(allow_null=True)


class ConsistencySerializer(serializers.Serializer):
    first = CheckpointSerializer(allow_null=True)
    second = CheckpointSerializer(allow_null=True)
    first_size = serializers.IntegerField()
    second_size = serializers.IntegerField()
    proof = serializers.ListField(child=serializers.CharField(), help_text="RFC 9162 consistency proof, hex")


class BundleSerializer(serializers.Serializer):
    format = serializers.CharField()
    version = serializers.IntegerField()
    stream = serializers.CharField()
    kind = serializers.CharField()
    events = serializers.ListField(child=serializers.DictField())
    secret = serializers.CharField(allow_null=True)
    engine = serializers.DictField(allow_null=True)
    head = serializers.DictField()
    inclusion = serializers.DictField(allow_null=True)
    checkpoint = CheckpointSerializer(allow_null=True)
    public_key = serializers.CharField(allow_null=True)
