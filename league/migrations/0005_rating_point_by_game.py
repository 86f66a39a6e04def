"""RatingPoint keyed by (competitor, game, sequence), and on PostgreSQL partitioned by game
(issue 17, P4b; league/ratings/partitions.py says why).

Django cannot turn a primary key into a composite one, so the table is made anew and its rows
copied (the points are a projection: ``manage.py ratings rebuild`` makes them again from the
verified results). On PostgreSQL the new table is a partitioned one, created here by hand; its
points go to the default partition, and each game's first rebuild moves it to its own.
"""

from django.db import migrations, models

OLD = "league_ratingpoint_old"
COLUMNS = "game, competitor, match_id, sequence, rating, deviation, volatility"


def create_table(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        schema_editor.create_model(apps.get_model("league", "RatingPoint"))
        return
    # The statements are written out, not imported from league.ratings.partitions, so that this
    # migration keeps making what it made when that module changes. The parent has no primary
    # key or index: each partition has its own (a game's leave the game out of their keys).
    schema_editor.execute(
        """
        CREATE TABLE league_ratingpoint (
            game varchar(64) NOT NULL,
            competitor varchar(120) NOT NULL,
            match_id uuid NOT NULL,
            sequence bigint NOT NULL,
            rating double precision NOT NULL,
            deviation double precision NOT NULL,
            volatility double precision NULL
        ) PARTITION BY LIST (game)
        """
    )
    schema_editor.execute("CREATE TABLE league_ratingpoint_default PARTITION OF league_ratingpoint DEFAULT")
    schema_editor.execute(
        "ALTER TABLE league_ratingpoint_default ADD CONSTRAINT league_ratingpoint_default_competitor "
        "PRIMARY KEY (competitor, game, sequence)"
    )
    schema_editor.execute(
        "CREATE INDEX league_ratingpoint_default_match ON league_ratingpoint_default (game, match_id)"
    )
    schema_editor.execute(
        "CREATE INDEX league_ratingpoint_default_sequence ON league_ratingpoint_default (game, sequence)"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0004_rating_point_competitor_index"),
    ]

    operations = [
        # The old table keeps its rows until they are copied; its index names are freed first.
        migrations.RemoveIndex(model_name="ratingpoint", name="ratingpoint_competitor"),
        migrations.RemoveIndex(model_name="ratingpoint", name="ratingpoint_game_match"),
        migrations.RemoveIndex(model_name="ratingpoint", name="ratingpoint_game_sequence"),
        migrations.AlterModelTable(name="ratingpoint", table=OLD),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="RatingPoint"),
                migrations.CreateModel(
                    name="RatingPoint",
                    fields=[
                        (
                            "pk",
                            models.CompositePrimaryKey(
                                "competitor",
                                "game",
                                "sequence",
                                blank=True,
                                editable=False,
                                primary_key=True,
                                serialize=False,
                            ),
                        ),
                        ("game", models.CharField(max_length=64)),
                        ("competitor", models.CharField(max_length=120)),
                        ("match_id", models.UUIDField()),
                        ("sequence", models.BigIntegerField()),
                        ("rating", models.FloatField()),
                        ("deviation", models.FloatField()),
                        ("volatility", models.FloatField(blank=True, null=True)),
                    ],
                    options={
                        "ordering": ["game", "competitor", "sequence"],
                        "indexes": [
                            models.Index(fields=["game", "match_id"], name="ratingpoint_game_match"),
                            models.Index(fields=["game", "sequence"], name="ratingpoint_game_sequence"),
                        ],
                    },
                ),
            ]
        ),
        migrations.RunPython(create_table),
        migrations.RunSQL(
            [f"INSERT INTO league_ratingpoint ({COLUMNS}) SELECT {COLUMNS} FROM {OLD}", f"DROP TABLE {OLD}"],
            migrations.RunSQL.noop,
        ),
    ]
