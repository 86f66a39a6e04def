"""Pages and endpoints that belong to one game rather than to matches in general: preparing for a
match (the Wizarding Duels group builder), and the saved setups a player reuses (generic: any game
whose checks are listed in ``checks.SETUP_CHECKS``)."""
