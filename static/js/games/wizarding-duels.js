// Wizarding Duels: the joined hex map as SVG (terrain by kind, Arrival Spaces, Zones, overlays face
// down or up), models with their Impacts against capacity and status badges, each seat's panel
// (character cards, clash hand, Power Pool, Spellbook, potions, quests; the opponent's hidden things
// as counts), the clash tray, and every legal action or prompt as its own click. Moves come only from
// the engine's legal actions (fetched from the legal-actions API: the view holds the state, not the
// choices); this file never invents a move.
// The content packs travel with the page (the catalog below, a test checks it against the engine's
// packs; `python -m tests.browser.test_wizarding_duels_pages --write` rewrites it after a pack edit).
(function () {
  "use strict";
  const PACKS = /*catalog*/{"original-v1":{"affiliations":["Lanternhold Academy","The Umbral Court"],"artifacts":[{"attack":{"bonus":1,"damage":1,"effects":[],"id":"ashwood-staff","name":"Ashwood Staff","range":3,"type":"magical"},"galleons":3,"id":"ashwood-staff","keywords":[],"lock":false,"name":"Ashwood Staff","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[]},{"attack":{"bonus":1,"damage":2,"effects":[],"id":"runed-dagger","name":"Runed Dagger","range":1,"type":"physical"},"galleons":2,"id":"runed-dagger","keywords":[],"lock":false,"name":"Runed Dagger","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[]},{"attack":null,"galleons":6,"id":"stormglass-orb","keywords":[],"lock":false,"name":"Stormglass Orb","passive":[{"n":1,"op":"defense"}],"rarity":"legendary","remove":false,"restricted_to":[],"use":[]},{"attack":{"bonus":2,"damage":2,"effects":[],"id":"bone-crossbow","name":"Bone Crossbow","once_per_round":true,"range":5,"type":"physical"},"galleons":4,"id":"bone-crossbow","keywords":[],"lock":false,"name":"Bone Crossbow","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[]},{"attack":{"bonus":3,"damage":3,"effects":[],"id":"wardens-blade","name":"Warden's Blade","range":1,"type":"physical"},"galleons":6,"id":"wardens-blade","keywords":[],"lock":false,"name":"Warden's Blade","passive":[],"rarity":"legendary","remove":false,"restricted_to":[],"use":[]},{"attack":null,"galleons":3,"id":"healers-satchel","keywords":[],"lock":false,"name":"Healer's Satchel","passive":[],"rarity":"common","remove":true,"restricted_to":[],"use":[{"n":2,"op":"heal"}]},{"attack":null,"galleons":2,"id":"smoke-phial","keywords":[],"lock":false,"name":"Smoke Phial","passive":[],"rarity":"common","remove":true,"restricted_to":[],"use":[{"op":"status","status":"concealment","x":2}]},{"attack":{"bonus":0,"damage":1,"effects":[{"op":"status","status":"burning","x":1}],"id":"lantern-of-embers","name":"Lantern of Embers","range":4,"type":"magical"},"galleons":3,"id":"lantern-of-embers","keywords":[],"lock":true,"name":"Lantern of Embers","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[]},{"attack":null,"galleons":3,"id":"wayfinder-boots","keywords":[],"lock":false,"name":"Wayfinder Boots","passive":[{"n":1,"op":"move"}],"rarity":"common","remove":false,"restricted_to":[],"use":[]},{"attack":null,"galleons":7,"id":"cloak-of-dusk","keywords":["Deathly Hallow"],"lock":false,"name":"Cloak of Dusk","passive":[{"n":1,"op":"defense"},{"n":1,"op":"move"}],"rarity":"legendary","remove":false,"restricted_to":[],"use":[]},{"attack":null,"galleons":8,"id":"elder-branch","keywords":["Deathly Hallow"],"lock":false,"name":"Elder Branch","passive":[{"n":1,"op":"cast_bonus"}],"rarity":"legendary","remove":false,"restricted_to":[],"use":[]},{"attack":null,"galleons":6,"id":"returning-stone","keywords":["Deathly Hallow"],"lock":true,"name":"Returning Stone","passive":[],"rarity":"legendary","remove":false,"restricted_to":[],"use":[{"n":2,"op":"heal"}]},{"attack":null,"galleons":0,"id":"tarnished-locket","keywords":["Horcrux"],"lock":false,"name":"Tarnished Locket","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[]},{"attack":null,"galleons":0,"id":"cracked-diadem","keywords":["Horcrux"],"lock":false,"name":"Cracked Diadem","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[]},{"attack":null,"galleons":0,"id":"black-goblet","keywords":["Horcrux"],"lock":false,"name":"Black Goblet","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[]},{"attack":null,"galleons":0,"id":"isolde-shard","keywords":["Horcrux"],"lock":false,"name":"Isolde's Shard","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[]},{"attack":null,"galleons":2,"id":"ember-the-owl","keywords":[],"lock":false,"name":"Ember the Owl","passive":[{"n":1,"op":"defense"}],"rarity":"common","remove":false,"restricted_to":["Tobias Fenwick"],"use":[]},{"attack":{"bonus":1,"damage":1,"effects":[{"op":"status","status":"slow","x":1}],"id":"whip-of-thorns","name":"Whip of Thorns","range":2,"type":"physical"},"galleons":3,"id":"whip-of-thorns","keywords":[],"lock":false,"name":"Whip of Thorns","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[]},{"attack":{"bonus":1,"damage":1,"effects":[{"op":"status","status":"poison","x":1}],"id":"venom-fang-knife","name":"Venom Fang Knife","range":1,"type":"physical"},"galleons":3,"id":"venom-fang-knife","keywords":[],"lock":false,"name":"Venom Fang Knife","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[]},{"attack":null,"galleons":3,"id":"ward-amulet","keywords":[],"lock":true,"name":"Ward Amulet","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[{"n":2,"op":"ward"}]},{"attack":null,"galleons":2,"id":"mirror-of-echoes","keywords":[],"lock":true,"name":"Mirror of Echoes","passive":[],"rarity":"common","remove":false,"restricted_to":[],"use":[{"n":1,"op":"draw_clash"}]},{"attack":null,"galleons":2,"id":"pouch-of-luck","keywords":[],"lock":false,"name":"Pouch of Luck","passive":[],"rarity":"common","remove":true,"restricted_to":[],"use":[{"op":"luck"}]},{"attack":{"bonus":2,"damage":2,"effects":[{"op":"push","x":2}],"id":"hammer-of-the-deep","name":"Hammer of the Deep","range":1,"type":"physical"},"galleons":5,"id":"hammer-of-the-deep","keywords":[],"lock":false,"name":"Hammer of the Deep","passive":[],"rarity":"legendary","remove":false,"restricted_to":[],"use":[]}],"challenges":["sword","ring","book","egg","orb","cup"],"characters":[{"affiliation":"Lanternhold Academy","attacks":[],"cunning":{"dark":0,"light":3,"neutral":0},"defense":2,"galleons":12,"id":"aldous-wren","innate_spells":[],"mastery":3,"name":"Professor Aldous Wren","slots":2,"traits":[{"id":"professor"},{"id":"master_wizard"},{"id":"leadership"},{"id":"ravenclaw"}]},{"affiliation":"Lanternhold Academy","attacks":[],"cunning":{"dark":0,"light":1,"neutral":1},"defense":1,"galleons":8,"id":"isolde-marrow","innate_spells":["ember-lash"],"mastery":2,"name":"Isolde Marrow","slots":1,"traits":[{"id":"apprentice"},{"id":"brave"},{"id":"chosen_one"},{"id":"gryffindor"}]},{"affiliation":"Lanternhold Academy","attacks":[],"cunning":{"dark":0,"light":1,"neutral":1},"defense":2,"galleons":7,"id":"tobias-fenwick","innate_spells":[],"mastery":1,"name":"Tobias Fenwick","slots":2,"traits":[{"id":"potioneer","x":2},{"id":"herbology_expert"},{"id":"potion_mastery","x":1},{"id":"hufflepuff"}]},{"affiliation":"Lanternhold Academy","attacks":[],"cunning":{"dark":0,"light":2,"neutral":0},"defense":1,"galleons":8,"id":"mira-quillfeather","innate_spells":[],"mastery":2,"name":"Mira Quillfeather","slots":1,"traits":[{"id":"animagus"},{"id":"fast"},{"id":"scout"},{"id":"duelling"}]},{"affiliation":"Lanternhold Academy","attacks":[{"bonus":2,"damage":2,"effects":[{"op":"push","x":1}],"id":"oak-club","name":"Oak Club","range":1,"type":"physical"}],"cunning":{"dark":0,"light":0,"neutral":1},"defense":2,"galleons":9,"id":"gorrin-oakhand","innate_spells":[],"mastery":0,"name":"Gorrin Oakhand","slots":2,"traits":[{"id":"muggle_beast"},{"id":"large","x":6},{"id":"physical_resistance","x":1},{"id":"elite_fighter"}]},{"affiliation":"Lanternhold Academy","attacks":[],"cunning":{"dark":0,"light":1,"neutral":0},"defense":1,"galleons":5,"id":"pell-the-helper","innate_spells":[],"mastery":1,"name":"Pell the Helper","slots":0,"traits":[{"id":"elf"},{"id":"small","x":2},{"id":"fly"}]},{"affiliation":"Lanternhold Academy","attacks":[],"cunning":{"dark":0,"light":2,"neutral":0},"defense":1,"galleons":10,"id":"sister-hollis","innate_spells":[],"mastery":2,"name":"Sister Hollis Venn","slots":1,"traits":[{"id":"supreme_mugwump"},{"id":"instinctive_casting"},{"id":"magical_mastery"},{"id":"tactician"}]},{"affiliation":"Lanternhold Academy","attacks":[],"cunning":{"dark":0,"light":1,"neutral":0},"defense":1,"galleons":4,"id":"lanternhold-cadet","innate_spells":[],"mastery":1,"name":"Lanternhold Cadet","slots":1,"traits":[{"id":"horde"},{"id":"apprentice"}]},{"affiliation":"The Umbral Court","attacks":[],"cunning":{"dark":0,"light":0,"neutral":1},"defense":2,"galleons":15,"id":"ashen-regent","innate_spells":[],"mastery":3,"name":"The Ashen Regent","slots":1,"traits":[{"id":"dark_lord"},{"id":"dark_arts"},{"id":"horcrux_maker"},{"id":"adoration"},{"id":"master_wizard"}]},{"affiliation":"The Umbral Court","attacks":[{"bonus":1,"damage":1,"effects":[{"op":"status","status":"poison","x":2}],"id":"veyra-fangs","name":"Fangs","range":1,"type":"physical"}],"cunning":{"dark":3,"light":0,"neutral":0},"defense":1,"galleons":7,"id":"veyra","innate_spells":[],"mastery":0,"name":"Veyra","slots":0,"traits":[{"id":"muggle_beast"},{"id":"lightning_fast"},{"id":"magical_immunity","x":1},{"id":"resistance","x":1}]},{"affiliation":"The Umbral Court","attacks":[],"cunning":{"dark":2,"light":0,"neutral":0},"defense":1,"galleons":9,"id":"cassius-vane","innate_spells":[],"mastery":2,"name":"Cassius Vane","slots":1,"traits":[{"id":"dark_arts"},{"id":"expert_wizard"},{"id":"slytherin"},{"id":"duelling"}]},{"affiliation":"The Umbral Court","attacks":[],"cunning":{"dark":1,"light":0,"neutral":1},"defense":2,"galleons":10,"id":"lord-malvern","innate_spells":[],"mastery":2,"name":"Lord Octavian Malvern","slots":3,"traits":[{"id":"malfoy_patriarch"},{"id":"master_of_death"},{"id":"leadership"}]},{"affiliation":"The Umbral Court","attacks":[],"cunning":{"dark":1,"light":0,"neutral":0},"defense":1,"galleons":4,"id":"umbral-acolyte","innate_spells":[],"mastery":1,"name":"Umbral Acolyte","slots":1,"traits":[{"id":"horde"},{"id":"apprentice"}]},{"affiliation":"The Umbral Court","attacks":[{"bonus":2,"damage":2,"effects":[],"id":"warden-maul","name":"Maul","range":1,"type":"physical"}],"cunning":{"dark":1,"light":0,"neutral":0},"defense":2,"galleons":9,"id":"grask-the-warden","innate_spells":[],"mastery":0,"name":"Grask the Warden","slots":1,"traits":[{"id":"muggle_beast"},{"id":"large","x":5},{"id":"brave"},{"id":"elite_fighter"}]},{"affiliation":"The Umbral Court","attacks":[],"cunning":{"dark":2,"light":0,"neutral":0},"defense":1,"galleons":8,"id":"nyx-hollow","innate_spells":[],"mastery":2,"name":"Nyx Hollow","slots":1,"traits":[{"id":"fly"},{"id":"small","x":3},{"id":"potion_mastery","x":1},{"id":"potioneer","x":1}]}],"clash_cards":[{"id":"c01-steady-hand","lower":{"colour":"any","cost":1,"effects":[{"n":1,"op":"clash_bonus"}],"timing":"early"},"upper":"1"},{"id":"c02-sidestep","lower":{"colour":"any","cost":0,"effects":[{"n":1,"op":"move"}],"timing":"late"},"upper":"1"},{"id":"c03-second-wind","lower":{"colour":"any","cost":1,"effects":[{"n":1,"op":"heal"}],"timing":"late"},"upper":"1"},{"id":"c04-rebound","lower":{"colour":"any","cost":0,"effects":[{"op":"push","x":1}],"timing":"late"},"upper":"1"},{"id":"c05-focus","lower":{"colour":"any","cost":1,"effects":[{"n":1,"op":"draw_clash"}],"timing":"late"},"upper":"1"},{"id":"c06-quick-feet","lower":{"colour":"any","cost":1,"effects":[{"n":2,"op":"move"}],"timing":"late"},"upper":"1"},{"id":"c07-spark","lower":{"colour":"any","cost":2,"effects":[{"n":1,"op":"damage_bonus"}],"timing":"early"},"upper":"1"},{"id":"c08-surge","lower":{"colour":"any","cost":1,"effects":[{"n":1,"op":"clash_bonus"}],"timing":"early"},"upper":"2"},{"id":"c09-drift","lower":{"colour":"any","cost":0,"effects":[{"n":1,"op":"move"}],"timing":"late"},"upper":"2"},{"id":"c10-recall","lower":{"colour":"any","cost":0,"effects":[{"n":1,"op":"regain_power"}],"timing":"late"},"upper":"2"},{"id":"c11-singe","lower":{"colour":"any","cost":2,"effects":[{"op":"status","status":"burning","x":1}],"timing":"late"},"upper":"2"},{"id":"c12-bolster","lower":{"colour":"any","cost":2,"effects":[{"n":2,"op":"clash_bonus"}],"timing":"early"},"upper":"2"},{"id":"c13-chill","lower":{"colour":"any","cost":1,"effects":[{"op":"status","status":"slow","x":1}],"timing":"late"},"upper":"2"},{"id":"c14-overflow","lower":{"colour":"any","cost":0,"effects":[{"n":2,"op":"regain_power"}],"timing":"late"},"upper":"3"},{"id":"c15-bind","lower":{"colour":"any","cost":1,"effects":[{"op":"jinx"}],"timing":"late"},"upper":"3"},{"id":"c16-fortune","lower":{"colour":"any","cost":2,"effects":[{"op":"luck"}],"timing":"late"},"upper":"3"},{"id":"c17-press","lower":{"colour":"any","cost":1,"effects":[{"n":1,"op":"damage_bonus"}],"timing":"early"},"upper":"3"},{"id":"c18-brace","lower":{"colour":"any","cost":0,"effects":[{"n":1,"op":"heal"}],"timing":"late"},"upper":"3"},{"id":"c19-fumble","lower":{"colour":"any","cost":0,"effects":[{"op":"jinx"}],"timing":"late"},"upper":"0"},{"id":"c20-windfall","lower":{"colour":"any","cost":0,"effects":[{"n":1,"op":"move"}],"timing":"late"},"upper":"2+"}],"id":"original-v1","jinxed":{"id":"jinxed","lower":null,"upper":"0"},"lucky":{"id":"lucky","lower":null,"upper":"2+"},"maps":[{"halves":[{"arrival":["0,0","1,0","3,0","4,0","6,0","7,0"],"hexes":{"-1,2":"open","-1,3":"open","-1,4":"open","-2,4":"open","0,0":"open","0,1":"open","0,2":"impassable","0,3":"open","0,4":"open","1,0":"open","1,1":"open","1,2":"open","1,3":"open","1,4":"open","2,0":"open","2,1":"difficult","2,2":"open","2,3":"obscuring","2,4":"open","3,0":"open","3,1":"open","3,2":"dangerous","3,3":"open","3,4":"open","4,0":"open","4,1":"open","4,2":"open","4,3":"open","4,4":"open","5,0":"open","5,1":"open","5,2":"open","5,3":"impassable","5,4":"open","6,0":"open","6,1":"obscuring","6,2":"open","6,3":"open","7,0":"open","7,1":"open"},"nexus":{"blue":"1,4","green":"0,4","red":"2,4"}},{"arrival":["0,0","1,0","3,0","4,0","6,0","7,0"],"hexes":{"-1,2":"open","-1,3":"open","-1,4":"open","-2,4":"open","0,0":"open","0,1":"open","0,2":"open","0,3":"impassable","0,4":"open","1,0":"open","1,1":"obscuring","1,2":"open","1,3":"open","1,4":"open","2,0":"open","2,1":"open","2,2":"dangerous","2,3":"open","2,4":"open","3,0":"open","3,1":"open","3,2":"open","3,3":"difficult","3,4":"open","4,0":"open","4,1":"open","4,2":"open","4,3":"open","4,4":"open","5,0":"open","5,1":"difficult","5,2":"impassable","5,3":"open","5,4":"open","6,0":"open","6,1":"open","6,2":"open","6,3":"open","7,0":"open","7,1":"open"},"nexus":{"blue":"2,4","green":"2,4","red":"2,4"}}],"id":"moonlit-cloister","name":"Moonlit Cloister"},{"halves":[{"arrival":["0,0","2,0","3,0","4,0","5,0","7,0"],"hexes":{"-1,2":"open","-1,3":"open","-1,4":"open","-2,4":"open","0,0":"open","0,1":"open","0,2":"open","0,3":"difficult","0,4":"open","1,0":"open","1,1":"dangerous","1,2":"impassable","1,3":"open","1,4":"open","2,0":"open","2,1":"open","2,2":"open","2,3":"open","2,4":"open","3,0":"open","3,1":"open","3,2":"open","3,3":"open","3,4":"open","4,0":"open","4,1":"difficult","4,2":"obscuring","4,3":"dangerous","4,4":"open","5,0":"open","5,1":"open","5,2":"open","5,3":"impassable","5,4":"open","6,0":"open","6,1":"open","6,2":"open","6,3":"open","7,0":"open","7,1":"open"},"nexus":{"blue":"1,4","green":"0,4","red":"2,4"}},{"arrival":["0,0","2,0","3,0","4,0","5,0","7,0"],"hexes":{"-1,2":"open","-1,3":"open","-1,4":"open","-2,4":"open","0,0":"open","0,1":"open","0,2":"impassable","0,3":"open","0,4":"open","1,0":"open","1,1":"open","1,2":"open","1,3":"dangerous","1,4":"open","2,0":"open","2,1":"open","2,2":"open","2,3":"open","2,4":"open","3,0":"open","3,1":"obscuring","3,2":"difficult","3,3":"open","3,4":"open","4,0":"open","4,1":"open","4,2":"open","4,3":"open","4,4":"open","5,0":"open","5,1":"open","5,2":"open","5,3":"impassable","5,4":"open","6,0":"open","6,1":"dangerous","6,2":"open","6,3":"open","7,0":"open","7,1":"open"},"nexus":{"blue":"2,4","green":"2,4","red":"2,4"}}],"id":"ember-quarry","name":"Ember Quarry"},{"halves":[{"arrival":["0,0","2,0","3,0","4,0","5,0","7,0"],"hexes":{"-1,2":"open","-1,3":"open","-1,4":"open","-2,4":"open","0,0":"open","0,1":"open","0,2":"open","0,3":"difficult","0,4":"open","1,0":"open","1,1":"dangerous","1,2":"impassable","1,3":"open","1,4":"open","2,0":"open","2,1":"open","2,2":"open","2,3":"open","2,4":"open","3,0":"open","3,1":"open","3,2":"open","3,3":"open","3,4":"open","4,0":"open","4,1":"difficult","4,2":"obscuring","4,3":"dangerous","4,4":"open","5,0":"open","5,1":"open","5,2":"open","5,3":"impassable","5,4":"open","6,0":"open","6,1":"open","6,2":"open","6,3":"open","7,0":"open","7,1":"open"},"nexus":{"blue":"1,4","green":"0,4","red":"2,4"}},{"arrival":["0,0","2,0","3,0","4,0","5,0","7,0"],"hexes":{"-1,2":"open","-1,3":"open","-1,4":"open","-2,4":"open","0,0":"open","0,1":"open","0,2":"impassable","0,3":"open","0,4":"open","1,0":"open","1,1":"open","1,2":"open","1,3":"dangerous","1,4":"open","2,0":"open","2,1":"open","2,2":"open","2,3":"open","2,4":"open","3,0":"open","3,1":"obscuring","3,2":"difficult","3,3":"open","3,4":"open","4,0":"open","4,1":"open","4,2":"open","4,3":"open","4,4":"open","5,0":"open","5,1":"open","5,2":"open","5,3":"impassable","5,4":"open","6,0":"open","6,1":"dangerous","6,2":"open","6,3":"open","7,0":"open","7,1":"open"},"nexus":{"blue":"2,4","green":"2,4","red":"2,4"}}],"id":"mistveil-crossing","name":"Mistveil Crossing","special_rules":["mystery_difficult"]}],"name":"Original characters, first set","params":{"animagus":{"defense_bonus":1,"move":4},"basic_combat_spell":{"combat":true,"cooldown":0,"effects":[{"n":1,"op":"impacts"}],"empower":null,"id":"basic-combat-spell","modifier":0,"name":"Basic Combat Spell","range":6,"reaction":false,"unforgivable":false,"upkeep":null},"chosen_one_nemesis":"The Ashen Regent","dark_lord_value":3,"galleons":50,"gryffindor_move":2,"horcrux_maker":{"familiar_name":"Veyra","rival_horcrux":"isolde-shard","rival_name":"Isolde Marrow"},"lower_move":1,"obscuring_defense":1},"potions":[{"effects":[{"n":1,"op":"heal","plus_x":true}],"id":"minor-salve","level":0,"name":"Minor Salve","range":0},{"effects":[{"op":"status","status":"slow","x":1}],"id":"flash-powder","level":0,"name":"Flash Powder","range":3},{"effects":[{"op":"status","status":"concealment","x":1}],"id":"shadow-draught","level":0,"name":"Shadow Draught","range":0},{"effects":[{"n":1,"op":"impacts"}],"id":"sting-flask","level":0,"name":"Sting Flask","range":3},{"effects":[{"n":1,"op":"draw_clash"}],"id":"quick-tonic","level":0,"name":"Quick Tonic","range":0},{"effects":[{"n":1,"op":"ward"}],"id":"ironbark-tonic","level":0,"name":"Ironbark Tonic","range":0},{"effects":[{"n":1,"op":"heal","plus_x":true}],"id":"mending-brew","level":1,"name":"Mending Brew","range":1},{"effects":[{"n":1,"op":"impacts"},{"op":"status","status":"burning","x":1}],"id":"firebomb","level":1,"name":"Firebomb","range":3},{"effects":[{"op":"status","status":"slow","x":2}],"id":"sleep-mist","level":1,"name":"Sleep Mist","range":3},{"effects":[{"n":3,"op":"heal"}],"id":"greater-salve","level":2,"name":"Greater Salve","range":1},{"effects":[{"op":"status","status":"poison","x":2}],"id":"toxic-vial","level":2,"name":"Toxic Vial","range":3},{"effects":[{"op":"status","status":"concealment","x":2}],"id":"vanishing-tincture","level":2,"name":"Vanishing Tincture","range":1},{"effects":[{"op":"push","x":3}],"id":"gust-bottle","level":2,"name":"Gust Bottle","range":2},{"effects":[{"n":4,"op":"heal"}],"id":"phoenix-tear","level":3,"name":"Phoenix Tear","range":0},{"effects":[{"n":2,"op":"impacts"},{"op":"status","status":"burning","x":1}],"id":"dragonfire-flask","level":3,"name":"Dragonfire Flask","range":3},{"effects":[{"op":"luck"}],"id":"liquid-luck","level":3,"name":"Liquid Luck","range":0}],"quests":[{"condition":{"challenges":1},"id":"hold-the-line","lightning":false,"name":"Hold the Line","points":1,"type":"minor_challenge_control"},{"condition":{"challenges":1,"zone":"enemy"},"id":"first-foothold","lightning":true,"name":"First Foothold","points":1,"type":"minor_challenge_control"},{"condition":{"challenges":2},"id":"two-fronts","lightning":false,"name":"Two Fronts","points":2,"type":"major_challenge_control"},{"condition":{"challenges":3},"id":"iron-grip","lightning":false,"name":"Iron Grip","points":3,"type":"major_challenge_control"},{"condition":{"challenge_kinds":["sword","ring","book"],"min":1},"id":"relic-hunter","lightning":false,"name":"Relic Hunter","points":2,"type":"challenge_collection"},{"condition":{"challenge_kinds":["egg","orb","cup"],"min":1},"id":"treasure-trove","lightning":false,"name":"Treasure Trove","points":2,"type":"challenge_collection"},{"condition":{"leader":"enemy_zone"},"id":"lead-from-the-front","lightning":false,"name":"Lead from the Front","points":2,"type":"leaders_missions"},{"condition":{"leader":"challenge"},"id":"crowned-victor","lightning":true,"name":"Crowned Victor","points":2,"type":"leaders_missions"},{"condition":{"arrival_spaces":1},"id":"at-the-gates","lightning":false,"name":"At the Gates","points":2,"type":"arrival_spaces"},{"condition":{"arrival_spaces":2},"id":"siege","lightning":false,"name":"Siege","points":3,"type":"arrival_spaces"},{"condition":{"impacts_made":2},"id":"first-blood","lightning":true,"name":"First Blood","points":1,"type":"making_impacts"},{"condition":{"impacts_made":4},"id":"onslaught","lightning":false,"name":"Onslaught","points":2,"type":"making_impacts"},{"condition":{"models_in_enemy_zone":2},"id":"advance-together","lightning":false,"name":"Advance Together","points":2,"type":"group_missions"},{"condition":{"all":[{"models_alive":3},{"removed_this_round":1}]},"id":"unbroken","lightning":false,"name":"Unbroken","points":1,"type":"group_missions"},{"condition":{"terrain":1},"id":"hold-the-ground","lightning":true,"name":"Hold the Ground","points":1,"type":"terrain_control"},{"condition":{"terrain":2},"id":"masters-of-the-field","lightning":false,"name":"Masters of the Field","points":2,"type":"terrain_control"},{"condition":{"spells_cast":2},"id":"spellstorm","lightning":true,"name":"Spellstorm","points":1,"type":"various"},{"condition":{"any":[{"potions_used":2},{"removed_this_round":1}]},"id":"alchemists-gambit","lightning":false,"name":"Alchemist's Gambit","points":1,"type":"various"}],"spells":[{"combat":true,"cooldown":1,"effects":[{"n":1,"op":"impacts"},{"op":"status","status":"burning","x":1}],"empower":{"colour":"light","cost":1},"id":"ember-lash","modifier":1,"name":"Ember Lash","range":5,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":true,"cooldown":1,"effects":[{"n":1,"op":"impacts"},{"op":"status","status":"slow","x":2}],"empower":{"colour":"neutral","cost":1},"id":"frost-bind","modifier":0,"name":"Frost Bind","range":5,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":true,"cooldown":1,"effects":[{"n":1,"op":"impacts"},{"op":"push","x":2}],"empower":{"colour":"neutral","cost":1},"id":"gale-shove","modifier":1,"name":"Gale Shove","range":4,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":true,"cooldown":2,"effects":[{"op":"status","status":"poison","x":2}],"empower":{"colour":"dark","cost":1},"id":"venom-hex","modifier":0,"name":"Venom Hex","range":5,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":true,"cooldown":2,"effects":[{"n":3,"op":"impacts"}],"empower":{"colour":"neutral","cost":2},"id":"stone-fist","modifier":1,"name":"Stone Fist","range":2,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":true,"cooldown":1,"effects":[{"n":2,"op":"impacts"}],"empower":{"colour":"light","cost":1},"id":"spark-volley","modifier":0,"name":"Spark Volley","range":6,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":true,"cooldown":3,"effects":[{"n":5,"op":"impacts"}],"empower":{"colour":"dark","cost":2},"id":"void-lance","modifier":-1,"name":"Void Lance","range":4,"reaction":false,"unforgivable":true,"upkeep":null},{"combat":true,"cooldown":3,"effects":[{"n":2,"op":"impacts"},{"op":"status","status":"burning","x":1},{"op":"status","status":"slow","x":1}],"empower":{"colour":"dark","cost":2},"id":"agony-brand","modifier":0,"name":"Agony Brand","range":4,"reaction":false,"unforgivable":true,"upkeep":null},{"combat":true,"cooldown":3,"effects":[{"op":"push","x":3},{"n":1,"op":"impacts"}],"empower":{"colour":"dark","cost":2},"id":"will-theft","modifier":0,"name":"Will Theft","range":5,"reaction":false,"unforgivable":true,"upkeep":null},{"combat":true,"cooldown":2,"effects":[{"n":1,"op":"impacts"},{"op":"jinx"}],"empower":{"colour":"dark","cost":1},"id":"mirror-jinx","modifier":0,"name":"Mirror Jinx","range":5,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":true,"cooldown":1,"effects":[{"op":"status","status":"slow","x":3}],"empower":{"colour":"dark","cost":1},"id":"shadow-snare","modifier":1,"name":"Shadow Snare","range":4,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":true,"cooldown":2,"effects":[{"n":1,"op":"impacts"},{"op":"status","status":"poison","x":1}],"empower":{"colour":"dark","cost":1},"id":"blight-cloud","modifier":1,"name":"Blight Cloud","range":3,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":true,"cooldown":2,"effects":[{"n":2,"op":"impacts"}],"empower":{"colour":"light","cost":1},"id":"lightning-dart","modifier":2,"name":"Lightning Dart","range":4,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":true,"cooldown":1,"effects":[{"n":2,"op":"impacts"},{"op":"push","x":1}],"empower":{"colour":"neutral","cost":1},"id":"thunder-clap","modifier":1,"name":"Thunder Clap","range":1,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":true,"cooldown":1,"effects":[{"op":"status","status":"slow","x":1},{"n":1,"op":"impacts"}],"empower":{"colour":"light","cost":1},"id":"tangleroot","modifier":0,"name":"Tangleroot","range":3,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":2,"effects":[{"n":2,"op":"ward"}],"empower":{"colour":"light","cost":1},"id":"stoneskin-ward","modifier":-2,"name":"Stoneskin Ward","range":0,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":2,"effects":[{"op":"status","status":"concealment","x":2}],"empower":{"colour":"neutral","cost":1},"id":"veil-of-dusk","modifier":0,"name":"Veil of Dusk","range":3,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":1,"effects":[{"n":2,"op":"heal"}],"empower":{"colour":"light","cost":1},"id":"mending-light","modifier":0,"name":"Mending Light","range":2,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":1,"effects":[{"n":4,"op":"teleport"}],"empower":{"colour":"neutral","cost":1},"id":"blink-step","modifier":0,"name":"Blink Step","range":0,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":3,"effects":[{"op":"luck"}],"empower":{"colour":"light","cost":1},"id":"fortunes-favour","modifier":-1,"name":"Fortune's Favour","range":0,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":1,"effects":[{"n":1,"op":"draw_clash"}],"empower":null,"id":"insight","modifier":0,"name":"Insight","range":0,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":1,"effects":[{"op":"cleanse"}],"empower":{"colour":"light","cost":1},"id":"purify","modifier":0,"name":"Purify","range":2,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":1,"effects":[{"n":1,"op":"ward"}],"empower":{"colour":"light","cost":1},"id":"guardian-wisp","modifier":0,"name":"Guardian Wisp","range":3,"reaction":false,"unforgivable":false,"upkeep":1},{"combat":false,"cooldown":2,"effects":[{"n":2,"op":"ward"}],"empower":{"colour":"light","cost":1},"id":"silver-stag","modifier":-1,"name":"Silver Stag Guardian","range":3,"reaction":false,"unforgivable":false,"upkeep":2},{"combat":false,"cooldown":2,"effects":[{"n":1,"op":"aura","radius":1}],"empower":{"colour":"dark","cost":1},"id":"ember-sentinel","modifier":-1,"name":"Ember Sentinel","range":0,"reaction":false,"unforgivable":false,"upkeep":2},{"combat":false,"cooldown":1,"effects":[{"n":3,"op":"defense_bonus"}],"empower":null,"id":"counter-charm","modifier":0,"name":"Counter-Charm","range":0,"reaction":true,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":1,"effects":[{"n":2,"op":"defense_bonus"}],"empower":null,"id":"deflection","modifier":0,"name":"Deflection","range":0,"reaction":true,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":2,"effects":[{"op":"status","status":"concealment","x":1},{"n":2,"op":"teleport"}],"empower":{"colour":"neutral","cost":1},"id":"mist-step","modifier":0,"name":"Mist Step","range":0,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":2,"effects":[{"n":2,"op":"regain_power"}],"empower":null,"id":"rally-call","modifier":0,"name":"Rally Call","range":0,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":1,"effects":[{"n":1,"op":"heal"},{"n":1,"op":"ward"}],"empower":{"colour":"neutral","cost":1},"id":"iron-resolve","modifier":0,"name":"Iron Resolve","range":1,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":2,"effects":[{"op":"status","status":"concealment","x":1}],"empower":{"colour":"dark","cost":1},"id":"gloom-shroud","modifier":0,"name":"Gloom Shroud","range":2,"reaction":false,"unforgivable":false,"upkeep":1},{"combat":true,"cooldown":2,"effects":[{"op":"status","status":"slow","x":2},{"op":"status","status":"burning","x":1}],"empower":{"colour":"dark","cost":1},"id":"night-terror","modifier":0,"name":"Night Terror","range":5,"reaction":false,"unforgivable":false,"upkeep":null},{"combat":false,"cooldown":2,"effects":[{"mark":"fire","n":1,"op":"marker","radius":1}],"empower":{"colour":"dark","cost":1},"id":"cinder-sigil","modifier":0,"name":"Cinder Sigil","range":4,"reaction":false,"unforgivable":false,"upkeep":2},{"combat":false,"cooldown":2,"effects":[{"mark":"guard","n":1,"op":"marker","radius":1}],"empower":{"colour":"neutral","cost":1},"id":"warden-lantern","modifier":0,"name":"Warden's Lantern","range":3,"reaction":false,"unforgivable":false,"upkeep":1}]}}/*end*/;
  // This page's extra styles (costs, ranges, markers, the clash lines, the tabletop pickers) live beside
  // the site's in static/css/wizarding-duels-play.css; the script links them (no inline style or script).
  if (document.currentScript && document.currentScript.src && !document.querySelector("link[data-wzd-css]")) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = document.currentScript.src.replace(/js\/games\/wizarding-duels\.js(\?.*)?$/, "css/wizarding-duels-play.css");
    link.dataset.wzdCss = "1";
    document.head.append(link);
  }
  const SVGNS = "http://www.w3.org/2000/svg";
  const R = 22; // hex radius in SVG units
  const SEAT_COLOUR = ["#2f6fde", "#c93d35"];
  const TERRAIN_WORD = {
    open: "Open", difficult: "Difficult", impassable: "Impassable", obscuring: "Obscuring", dangerous: "Dangerous",
  };
  const STEP_WORD = {
    build: "Group building", stock: "Potion Stock", choose_map: "Map choice", choose_joining: "Joining and Zone",
    place_challenge: "Challenge overlays", place_terrain: "Terrain overlay", mulligan: "Quest mulligan",
    horcrux_pick: "Horcruxes", deploy: "Deployment", neutral: "Neutral Cunning", upkeep: "Upkeep",
    activate: "Choose a model to activate", act: "Activation", react: "Reaction", leadership: "Leadership",
    order: "Leadership: the order", dark_lord: "Dark Lord", empower: "Empower", pick: "Advantage pick",
    brave_pick: "Pick a card", swap: "Swap", early: "Lower part (early)", late: "Lower part (late)",
    resist: "Resistance", place: "Place a model", instinctive: "Instinctive Casting", horcrux_lose: "Horcrux",
  };

  // One line per trait, for tooltips on the board, the character cards and the group builder.
  const TRAIT_HELP = {
    professor: "Professor: helps allies cast.", master_wizard: "Master Wizard: +1 when casting, +1 Defense against spells.",
    leadership: "Leadership: before a clash, look at the top three clash cards and put them back in any order.",
    ravenclaw: "Ravenclaw: a free draw of a quest or clash card.", apprentice: "Apprentice: a weaker caster.",
    brave: "Brave: past its capacity, a Defense test (3 or more) keeps it in play.", chosen_one: "Chosen One: +1 Defense against the nemesis's spells.",
    gryffindor: "Gryffindor: a free move at the start of a round.", potioneer: "Potioneer X: one potion of the Stock may be of level up to X; adds X to its potion clashes.",
    herbology_expert: "Herbology Expert: change one potion of the Stock.", potion_mastery: "Potion Mastery X: a free potion use.",
    hufflepuff: "Hufflepuff: drops the opponent's Disadvantage.", animagus: "Animagus: an Animal Form with more movement and +1 Defense.",
    fast: "Fast: +1 movement.", scout: "Scout: Difficult terrain costs it 1.", duelling: "Duelling: in a Faced Clash its opponent swaps first, face up.",
    muggle_beast: "Muggle/Beast: casts no spells.", large: "Large X: capacity X Impacts.", small: "Small X: capacity X Impacts.",
    physical_resistance: "Physical Resistance X: +X Defense against physical attacks.", elite_fighter: "Elite Fighter: a free attack.",
    elf: "Elf: casts with its card and the spell's modifier only.", fly: "Fly: crosses Impassable spaces and ignores Dangerous and Difficult terrain.",
    supreme_mugwump: "Supreme Mugwump: leads the Group well.", instinctive_casting: "Instinctive Casting: advances a spell clock one more step.",
    magical_mastery: "Magical Mastery: stronger casting.", tactician: "Tactician: a free extra action.",
    horde: "Horde: several models of this name may join.", dark_lord: "Dark Lord: once, a clash card counts a fixed value.",
    dark_arts: "Dark Arts: may cast Unforgivable spells.", horcrux_maker: "Horcrux Maker: Horcruxes go to allies; it may not carry one.",
    adoration: "Adoration: allies protect it.", lightning_fast: "Lightning Fast: +2 movement.",
    magical_immunity: "Magical Immunity X: ignores X magical Impacts.", resistance: "Resistance X: discard clash cards to ignore Impacts.",
    slytherin: "Slytherin: prepares Advantage for its next clash.", expert_wizard: "Expert Wizard: a free spell.",
    malfoy_patriarch: "Malfoy Patriarch: its artifacts cost 3 Galleons less.", master_of_death: "Master of Death: Deathly Hallows take no slot; it may carry several.",
  };
  const TRAITS_WITH_X = ["large", "small", "potioneer", "potion_mastery", "resistance", "physical_resistance", "magical_immunity"];
  function traitHelp(id, x) {
    const help = TRAIT_HELP[id] || id.replace(/_/g, " ");
    return x !== undefined && x !== null ? help.replace(/ X\b/g, ` ${x}`).replace(/\bX\b/g, String(x)) : help;
  }

  // -- tiny DOM helpers ---------------------------------------------------------------
  function build(node, attrs, children) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k === "className" ? "class" : k, v);
    }
    for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) node.append(c);
    return node;
  }
  const el = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);
  const sv = (tag, attrs, ...children) => build(document.createElementNS(SVGNS, tag), attrs, children);
  const parse = (k) => k.split(",").map(Number);
  const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
  const words = (id) => String(id).replace(/^c\d+-/, "").replace(/[-_]/g, " ");
  const title = (id) => words(id).replace(/\b\w/g, (c) => c.toUpperCase());

  function seatLabel(ctx, seat) {
    const s = ctx.match && ctx.match.seats ? ctx.match.seats.find((x) => x.seat === seat) : null;
    return s ? s.label : `Seat ${seat}`;
  }

  // -- the pack, as people read it --------------------------------------------------------
  function packOf(view) { return PACKS[view.pack] || { characters: [], spells: [], artifacts: [], potions: [], clash_cards: [], quests: [], maps: [], params: {} }; }
  const index = new Map();
  function lookup(view, kind, id) {
    const pk = packOf(view);
    const k = `${view.pack}:${kind}`;
    if (!index.has(k)) {
      const m = new Map((pk[kind] || []).map((x) => [x.id, x]));
      if (kind === "spells" && pk.params && pk.params.basic_combat_spell) m.set(pk.params.basic_combat_spell.id, pk.params.basic_combat_spell);
      if (kind === "clash_cards") { m.set("lucky", { id: "lucky", ...pk.lucky }); m.set("jinxed", { id: "jinxed", ...pk.jinxed }); }
      index.set(k, m);
    }
    return index.get(k).get(id) || null;
  }
  const nameOf = (view, kind, id) => { const x = lookup(view, kind, id); return x && x.name ? x.name : title(id); };

  function effectText(e) {
    switch (e.op) {
      case "impacts": return plural(e.n, "Impact");
      case "status": return `${title(e.status)} ${e.x}`;
      case "push": return `push ${e.x}`;
      case "heal": return `heal ${e.n}${e.plus_x ? "+X" : ""}`;
      case "ward": return `+${e.n} Defense (ward)`;
      case "regain_power": return `regain ${e.n} Power`;
      case "move": return `move ${e.n}`;
      case "teleport": return `teleport ${e.n}`;
      case "draw_clash": return `draw ${plural(e.n, "clash card")}`;
      case "clash_bonus": return `+${e.n} to the clash`;
      case "damage_bonus": return `+${e.n} Impact`;
      case "defense_bonus": return `+${e.n} Defense`;
      case "aura": return `aura: ${plural(e.n || 1, "Impact")} within ${e.radius || e.x || "?"}`;
      default: return [words(e.op), e.n !== undefined ? e.n : e.x !== undefined ? e.x : ""].join(" ").trim();
    }
  }
  const effectsText = (list) => (list || []).map(effectText).join(", ") || "no effect";

  function conditionText(c) {
    if (!c) return "";
    if (c.all) return c.all.map(conditionText).join(" and ");
    if (c.any) return c.any.map(conditionText).join(" or ");
    const out = [];
    if (c.challenges) out.push(`control ${plural(c.challenges, "Challenge")}${c.zone ? ` in ${c.zone === "own" ? "your" : "the enemy"} Zone` : ""}`);
    if (c.challenge_kinds) out.push(`control ${c.min || 1} of: ${c.challenge_kinds.join(", ")}`);
    if (c.leader) out.push({ enemy_zone: "your Leader in the enemy Zone", challenge: "your Leader controls a Challenge", alive: "your Leader alive" }[c.leader]);
    if (c.arrival_spaces) out.push(`occupy ${plural(c.arrival_spaces, "enemy Arrival Space")}`);
    if (c.impacts_made) out.push(`make ${plural(c.impacts_made, "Impact")} this round`);
    if (c.models_in_enemy_zone) out.push(`${plural(c.models_in_enemy_zone, "model")} in the enemy Zone`);
    if (c.models_alive) out.push(`${plural(c.models_alive, "model")} alive`);
    if (c.removed_this_round) out.push(`remove ${plural(c.removed_this_round, "enemy model")} this round`);
    if (c.terrain) out.push(`${plural(c.terrain, "model")} on non-Open terrain`);
    if (c.spells_cast) out.push(`cast ${plural(c.spells_cast, "spell")} this round`);
    if (c.potions_used) out.push(`use ${plural(c.potions_used, "potion")} this round`);
    return out.join(" and ");
  }

  function questCard(view, qid, opts = {}) {
    const q = lookup(view, "quests", qid);
    if (!q) return el("div", { class: "wzd-quest" }, title(qid));
    return el("div", { class: `wzd-quest${opts.selected ? " wzd-selected" : ""}${opts.onclick ? " wzd-pick" : ""}`, "data-quest": qid,
      onclick: opts.onclick || null, role: opts.onclick ? "button" : null },
    el("strong", {}, q.name), q.lightning ? el("span", { class: "wzd-bolt", title: "⚡ checked after every step" }, " ⚡") : null,
    el("span", { class: "wzd-qp" }, ` ${q.points} QP`),
    el("div", { class: "small muted" }, conditionText(q.condition)));
  }

  // A clash card: its upper number and its lower part.
  function clashCard(view, uid, opts = {}) {
    if (uid === "face-down" || uid === null || uid === undefined) {
      return el("span", { class: "wzd-card wzd-back", title: opts.why || "face down" }, "?");
    }
    if (String(uid).startsWith("blank")) return el("span", { class: "wzd-card wzd-blank", title: "a blank: the deck was empty (counts 0)" }, "0");
    const cid = view.cards ? view.cards[uid] : null;
    const c = cid ? lookup(view, "clash_cards", cid) : null;
    const lo = c && c.lower;
    const lowerText = lo ? `${lo.timing} · ${lo.cost ? `${lo.cost} ${lo.colour} Power` : "free"}: ${effectsText(lo.effects)}` : "no lower part";
    return el("span", {
      class: `wzd-card${opts.kept ? " wzd-kept" : ""}${opts.className ? ` ${opts.className}` : ""}`, "data-card": uid,
      title: `${cid ? title(cid) : uid}: upper ${c ? c.upper : "?"}; lower: ${lowerText}`,
    }, el("span", { class: "wzd-upper" }, c ? c.upper : "?"),
    opts.full ? el("span", { class: "wzd-lower small" }, lowerText) : null);
  }

  // -- the joined board (the engine's joining: the second half turned half a circle about its
  //    Nexus space and laid on the first half's Nexus space of that colour) --------------------------
  function joinedBoard(view, mapId, nexus) {
    const mp = lookup(view, "maps", mapId);
    if (!mp) return null;
    const [h0, h1] = mp.halves;
    if (!h0.nexus[nexus] || !h1.nexus[nexus]) return null;
    const n0 = parse(h0.nexus[nexus]);
    const n1 = parse(h1.nexus[nexus]);
    const turn = (k) => { const [q, r] = parse(k); return `${n0[0] - (q - n1[0])},${n0[1] - (r - n1[1])}`; };
    const terrain = new Map();
    const zones = new Map();
    for (const [k, t] of Object.entries(h0.hexes)) { terrain.set(k, t); zones.set(k, [0]); }
    for (const [k0, t] of Object.entries(h1.hexes)) {
      const k = turn(k0);
      if (terrain.has(k)) zones.set(k, [0, 1]);
      else { terrain.set(k, t); zones.set(k, [1]); }
    }
    const arrival = [h0.arrival.slice(), h1.arrival.map(turn)];
    return { name: mp.name, terrain, zones, arrival, nexus: [h0.nexus[nexus], turn(h1.nexus[nexus])] };
  }

  function hexPoints(cx, cy, r) {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 180 * (60 * i - 30);
      pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
    }
    return pts.join(" ");
  }

  // Lay out a board: own Zone at the bottom (the board turned half a circle when needed).
  function layout(board, bottomHalf) {
    const raw = (k) => { const [q, r] = parse(k); return [R * Math.sqrt(3) * (q + r / 2), R * 1.5 * r]; };
    let flip = false;
    if (bottomHalf !== null && bottomHalf !== undefined) {
      let mine = 0, n = 0, all = 0;
      for (const [k, z] of board.zones) { const y = raw(k)[1]; all += y; if (z.length === 1 && z[0] === bottomHalf) { mine += y; n += 1; } }
      flip = n > 0 && mine / n < all / board.zones.size;
    }
    const pos0 = (k) => { const [x, y] = raw(k); return flip ? [-x, -y] : [x, y]; };
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const k of board.terrain.keys()) {
      const [x, y] = pos0(k);
      minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
    }
    const pad = R + 6;
    const pos = (k) => { const [x, y] = pos0(k); return [x - minX + pad, y - minY + pad]; };
    return { pos, width: maxX - minX + 2 * pad, height: maxY - minY + 2 * pad };
  }

  function boardPreview(view, mapId, nexus, half) {
    const b = joinedBoard(view, mapId, nexus);
    if (!b) return null;
    const L = layout(b, half === undefined ? null : half);
    const svg = sv("svg", { class: "wzd-preview", viewBox: `0 0 ${L.width.toFixed(0)} ${L.height.toFixed(0)}`, role: "img",
      "aria-label": `${b.name}${nexus ? `, joined on ${nexus}` : ""}` });
    for (const [k, t] of b.terrain) {
      const [x, y] = L.pos(k);
      const z = b.zones.get(k);
      svg.append(sv("polygon", { class: `wzd-hex wzd-t-${t}${half !== undefined && z.includes(half) ? " wzd-mine" : ""}`, points: hexPoints(x, y, R - 1) }));
    }
    return svg;
  }

  // The engine's sum (groups.check_roster): models, plus each model's artifacts (a Malfoy Patriarch
  // pays 3 less for its own).
  function groupCost(packId, g) {
    const v = { pack: packId };
    return g.models.reduce((sum, cid, j) => {
      const ch = lookup(v, "characters", cid) || { galleons: 0, traits: [] };
      let arts = (g.artifacts[j] || []).reduce((t, a) => t + ((lookup(v, "artifacts", a) || {}).galleons || 0), 0);
      if ((ch.traits || []).some((t) => t.id === "malfoy_patriarch")) arts = Math.max(0, arts - 3);
      return sum + ch.galleons + arts;
    }, 0);
  }

  // This player's saved setups (the group builder's), fetched once per page: at the Group step those
  // built for this match's pack and budget; at the Stock step the Stocks saved with this very Group.
  let saved = { state: "idle", list: [] };
  function savedFor(view, ctx, kind) {
    if (!ctx.live || ctx.seat === null || ctx.seat === undefined) return [];
    if (saved.state === "idle") {
      saved.state = "loading";
      window.MatchClient.api("/api/setups/?game=wizarding-duels").then((body) => {
        saved = { state: "done", list: Array.isArray(body && body.setups) ? body.setups : [] };
        redraw();
      }).catch(() => { saved = { state: "done", list: [] }; });
    }
    const out = [];
    const mine = view.players[ctx.seat] && view.players[ctx.seat].group;
    for (const s of saved.list) {
      const cfg = (s.data && s.data.config) || {};
      const acts = (s.data && s.data.actions) || [];
      if (cfg.pack !== view.pack || cfg.galleons !== view.config.galleons || !acts[0]) continue;
      if (kind === "group") out.push({ name: s.name, action: acts[0] });
      else if (acts[1] && mine && JSON.stringify(mine.models) === JSON.stringify(acts[0].models)) out.push({ name: s.name, action: acts[1] });
    }
    return out;
  }

  // -- what this seat may do now ----------------------------------------------------------------
  let legal = { key: null, actions: null, pending: false };
  let lastDraw = null;
  function legalActions(view, ctx) {
    const m = ctx.match;
    if (!ctx.live || ctx.seat === null || ctx.seat === undefined || !m || m.status === "finished") return null;
    if (!(m.to_move || []).includes(ctx.seat)) return [];
    const key = `${m.id}:${m.head_seq}`;
    if (legal.key === key && legal.actions) return legal.actions;
    if (legal.key !== key || !legal.pending) {
      legal = { key, actions: null, pending: true };
      window.MatchClient.api(`/api/matches/${m.id}/legal/`).then((body) => {
        if (legal.key !== key) return;
        legal = { key, actions: body.actions || [], pending: false };
        if (lastDraw) render(...lastDraw);
      }).catch(() => { if (legal.key === key) legal = { key: null, actions: null, pending: false }; });
    }
    return null; // loading
  }

  // UI state kept between renders of the same position
  const uis = new WeakMap();
  function uiFor(root, ctx) {
    let ui = uis.get(root);
    if (!ui) { ui = {}; uis.set(root, ui); }
    const stamp = ctx.match ? `${ctx.match.id}:${ctx.match.head_seq}` : null;
    if (ui.stamp !== stamp) { ui.stamp = stamp; ui.pick = null; ui.terrain = "difficult"; ui.discard = []; ui.focus = null; ui.sent = false; ui.drawn = []; }
    return ui;
  }

  function send(ui, ctx, action) {
    if (ui.sent) return;
    ui.sent = true;
    const stamp = ui.stamp;
    // A refused action leaves the position as it was: offer the choices again.
    Promise.resolve(ctx.act(action)).finally(() => {
      const err = document.getElementById("error");
      if (ui.stamp === stamp && err && !err.hidden) { ui.sent = false; redraw(); }
    });
    redraw();
  }

  // -- labels for each kind of action -----------------------------------------------------------
  function modelName(view, uid) { const m = view.models && view.models[uid]; return m ? m.name : uid; }
  function actionLabel(view, a, ctx) {
    const me = ctx.seat;
    const P = view.players && me !== null && me !== undefined ? view.players[me] : null;
    switch (a.type) {
      case "end": return "End this activation";
      case "move": return `Move to ${a.to}${a.dangerous ? ` through ${plural(a.dangerous, "Dangerous space")} (1 Impact each)` : ""}`;
      case "attack": {
        const m = view.act ? view.models[view.act.model] : null;
        const prof = m ? (m.attacks.find((x) => x.id === a.attack) || null) : null;
        const name = prof ? prof.name : a.artifact ? nameOf(view, "artifacts", a.artifact) : title(a.attack);
        return `Attack ${modelName(view, a.target)} with ${name}`;
      }
      case "cast": return `Cast ${nameOf(view, "spells", a.spell)} ${view.models && view.models[a.target] ? `on ${modelName(view, a.target)}` : `at space ${a.target}`}`;
      case "draw_quest": return `Draw a quest (discard ${nameOf(view, "quests", a.discard)})`;
      case "draw_clash": return "Draw a clash card";
      case "potion": {
        const pid = P && P.potions[a.index] ? P.potions[a.index].id : "?";
        return `Use ${nameOf(view, "potions", pid)} on ${modelName(view, a.target)}`;
      }
      case "flip": return `Flip the overlay at ${a.hex}`;
      case "use_artifact": return `Use ${nameOf(view, "artifacts", a.artifact)}`;
      case "slytherin": return "Slytherin: prepare (Advantage on the next clash)";
      case "dark_lord_swap": return `Dark Lord: swap ${nameOf(view, "spells", a.give)} for ${nameOf(view, "spells", a.take)}`;
      case "herbology": return `Herbology: change potion ${a.index + 1} into ${nameOf(view, "potions", a.potion)}`;
      case "activate": return `Activate ${modelName(view, a.model)}${a.animal ? " in Animal Form" : ""}`;
      case "react": return `React with ${nameOf(view, "spells", a.spell)}`;
      case "pass": return "Pass";
      case "peek": return "Look at the top 3 clash cards (Leadership)";
      case "order": return `Put them back: ${a.cards.map((c) => cardWord(view, c)).join(", ")} (top first)`;
      case "dark_lord": return "Declare Dark Lord for this clash";
      case "empower": return `Empower${paying(a)}`;
      case "keep": return `Keep ${cardWord(view, a.card)}`;
      case "keep_card": return "Keep the revealed card";
      case "swap": return `Swap for ${cardWord(view, a.card)} from your hand (face down)`;
      case "lower": return a.use ? `Use the kept card's lower part${paying(a)}` : "Do not use the lower part";
      case "resist": return a.discard.length ? `Discard ${a.discard.map((c) => cardWord(view, c)).join(", ")} to resist` : "Resist nothing";
      case "place": return a.hex === null ? (a.model === null ? "Nobody moves" : "Stay put") : `${a.model ? `${modelName(view, a.model)} to ` : "To "}${a.hex}${a.dangerous ? ` through ${plural(a.dangerous, "Dangerous space")}` : ""}`;
      case "instinctive": return `Advance ${nameOf(view, "spells", a.spell)} one more step`;
      case "horcrux_lose": return `Give up Horcrux ${a.index + 1}`;
      case "horcrux": return a.models.length ? `Horcruxes for ${a.models.map((u) => modelName(view, u)).join(", ")}` : "No Horcruxes";
      case "neutral": return `Take ${a.light} Neutral Cunning as white (the rest black)`;
      case "upkeep": return a.keep ? `Keep the upkept spell (pay its upkeep${paying(a) ? `,${paying(a).slice(1)}` : ""})` : "Drop the upkept spell";
      case "choose_map": return `Play on ${nameOf(view, "maps", a.map)}`;
      case "choose_joining": return `Join on the ${a.nexus} Nexus, take half ${a.half + 1} as your Zone`;
      case "place_challenge": return `Challenge overlay at ${a.hex}`;
      case "place_terrain": return `${TERRAIN_WORD[a.terrain]} overlay at ${a.hex}`;
      case "deploy": return `Deploy ${modelName(view, a.model)} at ${a.hex}`;
      case "mulligan": return a.discard.length ? `Mulligan ${a.discard.map((q) => nameOf(view, "quests", q)).join(", ")}` : "Keep all three quests";
      default: return `${title(a.type)} ${JSON.stringify(a)}`;
    }
  }
  // A payment split (version 2: the payer picks the colours): "light" white, the rest black.
  function paying(a) { return a && typeof a.light === "number" ? ` paying ${a.light} white, the rest black` : ""; }
  function cardWord(view, uid) {
    const cid = view.cards ? view.cards[uid] : null;
    const c = cid ? lookup(view, "clash_cards", cid) : null;
    return c ? `${c.upper} (${title(cid)})` : uid;
  }

  function choiceButton(view, ctx, ui, a, i, extra = {}) {
    return el("button", {
      class: `wzd-choice${extra.primary ? " primary" : ""}`, "data-testid": `choice-${a.type}-${i}`, "data-action": JSON.stringify(a),
      title: extra.title || null, onclick: () => send(ui, ctx, a),
    }, extra.label || actionLabel(view, a, ctx));
  }

  // -- the board ----------------------------------------------------------------------------------
  function statusBadges(m) {
    const out = [];
    if (m.burning) out.push(["B", `Burning${m.burning > 1 ? ` ${m.burning}` : ""}`, "burning"]);
    if (m.poison) out.push([`P${m.poison}`, `Poison ${m.poison}`, "poison"]);
    if (m.slow) out.push([`S${m.slow}`, `Slow ${m.slow}`, "slow"]);
    const conceal = (m.conceal || []).reduce((s, c) => s + (typeof c === "number" ? c : (c.x || c.n || 1)), 0);
    if (conceal) out.push([`C${conceal}`, `Concealment ${conceal}`, "conceal"]);
    if ((m.ward || []).length) out.push(["W", "Warded", "ward"]);
    if (m.animal) out.push(["A", "Animal Form", "animal"]);
    if ((m.horcruxes || []).length) out.push([`H${m.horcruxes.length}`, `${m.horcruxes.length} Horcrux(es)`, "horcrux"]);
    return out;
  }
  const capacity = (m) => (m.traits.large !== undefined ? m.traits.large : m.traits.small !== undefined ? m.traits.small : 4);

  const MYSTERY_TERRAIN = { mystery_difficult: "difficult" };
  function mysteryTerrain(view) {
    const mp = lookup(view, "maps", view.map);
    const rule = ((mp && mp.special_rules) || []).find((r) => MYSTERY_TERRAIN[r]);
    return rule ? MYSTERY_TERRAIN[rule] : null;
  }

  // What a click on a lit space sends: its only action, or, when the only alternatives are riskier
  // routes to it (version 2), the safest one (the riskier ones are listed with the other actions).
  function primaryAt(options) {
    if (options.length === 1) return options[0];
    const safe = options.filter((a) => !a.dangerous);
    return safe.length === 1 && options.every((a) => a.type === safe[0].type && (a.to || a.hex) === (safe[0].to || safe[0].hex)) ? safe[0] : null;
  }

  // The cheapest route's cost to every space (the engine's step rules: Difficult costs 2 unless the
  // model flies or scouts; Impassable only for fliers; a face-up Terrain overlay is the space's terrain).
  function movementCosts(view, b, m) {
    const fly = m.traits && m.traits.fly !== undefined;
    const scout = m.traits && m.traits.scout !== undefined;
    const over = new Map((view.overlays || []).filter((o) => o.kind === "terrain" && o.face_up && o.what).map((o) => [o.hex, o.what]));
    // A board's Mystery rule (version 2): a face-down overlay's space takes that rule's terrain.
    const mystery = mysteryTerrain(view);
    if (mystery) for (const o of view.overlays || []) if (!o.face_up) over.set(o.hex, mystery);
    const terrainAt = (k) => (over.has(k) ? over.get(k) : b.terrain.get(k));
    const best = new Map([[m.hex, 0]]);
    const frontier = [m.hex];
    const dirs = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]];
    while (frontier.length) {
      frontier.sort((a, c) => best.get(a) - best.get(c));
      const h = frontier.shift();
      const [q, r] = parse(h);
      for (const [dq, dr] of dirs) {
        const n = `${q + dq},${r + dr}`;
        const t = terrainAt(n);
        if (t === undefined || (t === "impassable" && !fly)) continue;
        const c = best.get(h) + (t === "difficult" && !fly && !scout ? 2 : 1);
        if (c < (best.has(n) ? best.get(n) : Infinity)) { best.set(n, c); frontier.push(n); }
      }
    }
    return best;
  }

  // What the active model could use, with its range: attacks, artifacts, spells, potions.
  function rangeChoices(view, ctx) {
    if (!view.act || !view.models[view.act.model]) return [];
    const m = view.models[view.act.model];
    const out = [];
    for (const a of m.attacks || []) out.push({ label: a.name, n: a.range });
    for (const a of m.artifacts || []) {
      const art = lookup(view, "artifacts", a.id);
      if (art && art.attack) out.push({ label: art.name, n: art.attack.range });
    }
    const basic = (packOf(view).params || {}).basic_combat_spell;
    const spells = [...(m.innate || []), ...(view.players[m.seat] ? view.players[m.seat].spellbook : [])];
    if (basic && !(m.traits && m.traits.muggle_beast !== undefined)) spells.unshift(basic.id);
    for (const sid of [...new Set(spells)]) {
      const sp = lookup(view, "spells", sid);
      if (sp) out.push({ label: sp.name, n: sp.range });
    }
    if (m.seat === ctx.seat) {
      for (const pot of view.players[m.seat].potions || []) {
        const pp = lookup(view, "potions", pot.id);
        if (pp && !pot.spent && !out.some((x) => x.label === pp.name)) out.push({ label: pp.name, n: pp.range });
      }
    }
    return out;
  }

  function boardSvg(view, ctx, ui, acts) {
    const b = joinedBoard(view, view.map, view.nexus);
    if (!b) return null;
    const mySeat = ctx.seat !== null && ctx.seat !== undefined ? ctx.seat : 0;
    const L = layout(b, view.zone_half ? view.zone_half[mySeat] : 0);
    const svg = sv("svg", { class: "wzd-board", "data-testid": "hex-board", viewBox: `0 0 ${L.width.toFixed(0)} ${(L.height + 16).toFixed(0)}`,
      role: "img", "aria-label": `${b.name}, joined on the ${view.nexus} Nexus` });
    const gHex = svg.appendChild(sv("g", {})), gMark = svg.appendChild(sv("g", {})), gModel = svg.appendChild(sv("g", {}));
    const gLine = svg.appendChild(sv("g", { class: "wzd-lines" }));
    // Distances and sight lines are measured from the selected model, else the active one.
    const fromUid = ui.focus && ui.focus.model && view.models[ui.focus.model] && view.models[ui.focus.model].hex ? ui.focus.model
      : view.act && view.models[view.act.model] && view.models[view.act.model].hex ? view.act.model : null;
    const from = fromUid ? view.models[fromUid] : null;
    const readout = sv("text", { class: "wzd-readout", x: 6, y: L.height + 10, "data-testid": "distance" }, from ? `From ${from.name}: hover a space` : "");
    svg.append(readout);
    const dist = (a, b) => { const [q1, r1] = parse(a), [q2, r2] = parse(b); return (Math.abs(q1 - q2) + Math.abs(r1 - r2) + Math.abs(q1 + r1 - q2 - r2)) / 2; };
    const hover = (k, target) => {
      gLine.replaceChildren();
      if (!from || k === null) { readout.textContent = from ? `From ${from.name}: hover a space` : ""; return; }
      readout.textContent = `${from.name} → ${k}: distance ${dist(from.hex, k)}${target ? (target.ok ? ", a legal target (in line of sight and range)" : ", not a target now") : ""}`;
      if (target) {
        const [x1, y1] = L.pos(from.hex), [x2, y2] = L.pos(k);
        gLine.append(sv("line", { class: `wzd-sight${target.ok ? "" : " wzd-no"}`, x1, y1, x2, y2, "data-testid": "sight-line" }));
      }
    };
    const arrivalOf = new Map();
    b.arrival.forEach((list, half) => list.forEach((k) => arrivalOf.set(k, half)));
    // The cost of each lit move (display only: the lit spaces themselves are the engine's legal moves).
    const moveCost = view.act && view.models[view.act.model] && view.models[view.act.model].hex
      ? movementCosts(view, b, view.models[view.act.model]) : new Map();
    // Spaces within the range the player asked to see, from the active model.
    const rangeFrom = ui.range && from ? from.hex : null;
    const seatOfHalf = (half) => (view.zone_half ? view.zone_half.indexOf(half) : half);
    const overlays = new Map((view.overlays || []).map((o) => [o.hex, o]));
    const hexActs = acts.hex;
    // A lit space answers a click on itself or on a model standing on it (see the model's click).
    const chooseSpace = (k) => {
      const options = hexActs.get(k) || [];
      if (primaryAt(options)) send(ui, ctx, primaryAt(options));
      else { ui.focus = { hex: k }; redraw(); }
    };
    for (const [k, t] of b.terrain) {
      const [x, y] = L.pos(k);
      const z = b.zones.get(k);
      const cls = ["wzd-hex", `wzd-t-${t}`];
      if (z.length === 2) cls.push("wzd-front");
      else cls.push(`wzd-zone-${seatOfHalf(z[0])}`);
      const options = hexActs.get(k) || [];
      if (options.length) cls.push("wzd-lit", "wzd-choice");
      const inRange = rangeFrom !== null && dist(rangeFrom, k) <= ui.range.n && k !== rangeFrom;
      if (inRange) cls.push("wzd-inrange");
      if (ui.focus && ui.focus.hex === k) cls.push("wzd-focus-hex");
      const cost = options.some((a) => a.type === "move") ? moveCost.get(k) : undefined;
      const tip = `${k}: ${TERRAIN_WORD[t]}${z.length === 2 ? " (front row: both Zones)" : ` (${seatLabel(ctx, seatOfHalf(z[0]))}'s Zone)`}${arrivalOf.has(k) ? ", Arrival Space" : ""}`;
      gHex.append(sv("polygon", {
        class: cls.join(" "), points: hexPoints(x, y, R - 1), "data-hex": k, "data-testid": `hex-${k}`,
        onclick: options.length ? () => chooseSpace(k) : null,
        onmouseenter: () => hover(k, null),
      }, sv("title", {}, tip + (from ? `, distance ${dist(from.hex, k)} from ${from.name}` : "") + (cost !== undefined ? `, movement cost ${cost}` : "")
        + (inRange ? `, within ${ui.range.label}'s range ${ui.range.n}` : "") + (options.length ? ` · click: ${actionLabel(view, options[0], ctx)}` : ""))));
      if (arrivalOf.has(k)) {
        gMark.append(sv("circle", { class: "wzd-arrival", cx: x, cy: y, r: R * 0.62, stroke: SEAT_COLOUR[seatOfHalf(arrivalOf.get(k))] < 0 ? "#888" : SEAT_COLOUR[seatOfHalf(arrivalOf.get(k))] || "#888" }));
      }
      const o = overlays.get(k);
      if (o) {
        const what = o.face_up ? (o.kind === "challenge" ? o.what : TERRAIN_WORD[o.what] || o.what) : (o.what ? `Mystery (${TERRAIN_WORD[o.what] || o.what}, only you know)` : "Mystery");
        gMark.append(sv("g", { class: `wzd-overlay wzd-ov-${o.kind}${o.face_up ? " wzd-up" : " wzd-down"}`, "data-testid": `overlay-${k}` },
          sv("title", {}, `${o.kind === "challenge" ? "Challenge" : "Terrain"} overlay: ${what}${!o.face_up && mysteryTerrain(view) ? ` (on this map a Mystery overlay's space is ${TERRAIN_WORD[mysteryTerrain(view)]} terrain)` : ""}`),
          sv("rect", { x: x - 11, y: y - 16, width: 22, height: 12, rx: 3 }),
          sv("text", { x, y: y - 7 }, o.face_up ? (o.kind === "challenge" ? o.what.slice(0, 4) : (o.what || "?").slice(0, 4)) : (o.kind === "challenge" ? "?" : o.what ? `?${o.what[0]}` : "?"))));
      }
      if (cost !== undefined) gMark.append(sv("text", { class: "wzd-cost", x, y: y + 12, "data-testid": `cost-${k}` }, String(cost)));
      else if (options.length) gMark.append(sv("circle", { class: "wzd-dot", cx: x, cy: y + 9, r: 3.5 }));
    }
    // Board markers (Fiendfyre, Patronus, Trap, fire): from spells that place them.
    for (const mk of view.markers || []) {
      if (!mk || !mk.hex || !b.terrain.has(mk.hex)) continue;
      const [x, y] = L.pos(mk.hex);
      const name = mk.spell ? nameOf(view, "spells", mk.spell) : title(mk.mark || "marker");
      gMark.append(sv("g", { class: `wzd-board-marker wzd-mk-${mk.mark || "marker"}`, "data-testid": `marker-${mk.hex}` },
        sv("title", {}, `${title(mk.mark || "marker")}${mk.spell ? ` (${name})` : ""}${mk.seat !== undefined && mk.seat !== null ? `, ${seatLabel(ctx, mk.seat)}'s` : ""}${mk.n ? `, ${plural(mk.n, "Impact")}` : ""}${mk.radius ? ` within ${mk.radius}` : ""}`),
        sv("circle", { cx: x + 12, cy: y - 10, r: 6.5, fill: mk.seat === 0 || mk.seat === 1 ? SEAT_COLOUR[mk.seat] : "#777" }),
        sv("text", { x: x + 12, y: y - 7.5 }, (mk.mark || "M")[0].toUpperCase())));
    }
    // Models
    for (const m of Object.values(view.models || {})) {
      if (m.removed || !m.hex || !b.terrain.has(m.hex)) continue;
      const [x, y] = L.pos(m.hex);
      const cap = capacity(m);
      const opts = acts.model.get(m.uid) || [];
      const active = view.act && view.act.model === m.uid;
      const cls = ["wzd-model", `wzd-seat-${m.seat}`];
      if (active) cls.push("wzd-active");
      if (opts.length) cls.push("wzd-target", "wzd-choice");
      if (ui.focus && ui.focus.model === m.uid) cls.push("wzd-focus");
      const g = sv("g", { class: cls.join(" "), "data-testid": `model-${m.uid}`, "data-model": m.uid,
        onclick: () => {
          // On a lit space the model covers it: with nothing to do to the model, the click is the
          // space's; with both, the choices on the model and at the space are offered side by side.
          const here = hexActs.get(m.hex) || [];
          if (here.length && !opts.length) chooseSpace(m.hex);
          else { ui.focus = here.length ? { model: m.uid, hex: m.hex } : { model: m.uid }; redraw(); }
        },
        onmouseenter: () => (m.uid === fromUid ? hover(null) : hover(m.hex, { ok: opts.some((a) => a.target === m.uid) })), onmouseleave: () => hover(null) },
      sv("title", {}, `${m.name}${m.leader ? " (Leader)" : ""}: ${m.impacts}/${cap} Impacts${statusBadges(m).map((s) => `, ${s[1]}`).join("")}${m.markers ? `, ${plural(m.markers, "activation marker")}` : ""}`),
      sv("circle", { cx: x, cy: y, r: R * 0.66, fill: SEAT_COLOUR[m.seat] }),
      sv("text", { class: "wzd-initials", x, y: y + 1 }, m.name.split(/\s+/).filter((w) => /^[A-Z]/.test(w)).map((w) => w[0]).slice(0, 2).join("") || m.name.slice(0, 2)),
      sv("text", { class: "wzd-impacts", x, y: y + 11 }, `${m.impacts}/${cap}`));
      if (m.leader) g.append(sv("text", { class: "wzd-leader", x: x - 12, y: y - 9 }, "★"));
      if (m.markers) g.append(sv("rect", { class: "wzd-marker", x: x + 8, y: y - 15, width: 7, height: 7 }));
      statusBadges(m).forEach(([abbr, , kind], i) => g.append(sv("g", { class: `wzd-badge wzd-b-${kind}` },
        sv("rect", { x: x - 16 + i * 11, y: y + 12, width: 11, height: 9, rx: 2 }), sv("text", { x: x - 10.5 + i * 11, y: y + 19 }, abbr))));
      gModel.append(g);
    }
    return svg;
  }

  function redraw() { if (lastDraw) render(...lastDraw); }

  function legend() {
    const swatch = (t) => el("span", { class: "wzd-legend-item" },
      build(document.createElementNS(SVGNS, "svg"), { width: 16, height: 16, viewBox: "0 0 16 16" },
        [sv("polygon", { class: `wzd-hex wzd-t-${t}`, points: hexPoints(8, 8, 7.5) })]), ` ${TERRAIN_WORD[t]}`);
    return el("details", { class: "wzd-legend small", "data-testid": "legend" }, el("summary", {}, "How to read the board"),
      el("p", {}, Object.keys(TERRAIN_WORD).map(swatch)),
      el("ul", {},
        el("li", {}, "Your Zone is at the bottom, tinted blue; the opponent's is tinted red. Spaces with a purple edge are the front row, in both Zones."),
        el("li", {}, "Dashed circles are Arrival Spaces, in their seat's colour. Small tags are overlays: dark = Mystery side up (\"?\"), yellow = a Challenge, white = a Terrain type."),
        el("li", {}, "A model shows its initials and Impacts against its capacity; ★ is the Leader, a black square an activation marker, coloured badges its statuses (B Burning, P Poison, S Slow, C Concealment, A Animal Form, H Horcruxes)."),
        el("li", {}, "Green-edged spaces with a dot answer a click; ringed models are legal targets. Hover a model or a space for the distance from the selected (or active) model and the sight line.")));
  }

  // -- panels ---------------------------------------------------------------------------------------
  function modelCard(view, ctx, m) {
    const ch = lookup(view, "characters", m.char) || {};
    const cap = capacity(m);
    const traits = Object.entries(m.traits).map(([t, x]) => {
      const shown = x > 1 || TRAITS_WITH_X.includes(t) ? x : undefined;
      return el("span", { class: "wzd-trait", tabindex: "0", "data-trait": t, title: traitHelp(t, shown) }, `${title(t)}${shown !== undefined ? ` ${shown}` : ""}`);
    });
    const clocks = m.innate_clocks || {};
    return el("div", { class: `wzd-model-card wzd-seat-${m.seat}${m.removed ? " wzd-removed" : ""}`, "data-testid": `card-${m.uid}` },
      el("div", {}, el("strong", {}, m.name), m.leader ? " ★ Leader" : "", m.removed ? " · removed" : "",
        el("span", { class: "wzd-imp" }, ` ${m.impacts}/${cap} Impacts`)),
      el("div", { class: "small" }, `Mastery ${m.mastery} · Defense ${m.defense} · Cunning ${m.cunning.light}w/${m.cunning.dark}b${m.cunning.neutral ? `/${m.cunning.neutral}n` : ""} · ${plural(m.slots, "slot")}${ch.galleons ? ` · ${ch.galleons} G` : ""}`),
      traits.length ? el("div", { class: "small muted wzd-traits", "data-testid": `traits-${m.uid}` }, traits) : null,
      m.attacks.length ? el("div", { class: "small" }, "Attacks: ", m.attacks.map((a) => `${a.name} (${a.type}, +${a.bonus}, ${a.damage} Impact, range ${a.range})`).join("; ")) : null,
      m.innate.length ? el("div", { class: "small" }, "Innate: ", m.innate.map((s) => `${nameOf(view, "spells", s)}${clocks[s] ? ` (clock ${clocks[s]})` : ""}`).join(", ")) : null,
      m.spells.length ? el("div", { class: "small" }, "Spells: ", m.spells.map((s) => nameOf(view, "spells", typeof s === "string" ? s : s.id || s.spell)).join(", ")) : null,
      m.artifacts.length ? el("div", { class: "small" }, "Artifacts: ", m.artifacts.map((a) => `${nameOf(view, "artifacts", a.id)}${a.locked ? " 🔒" : ""}${a.used ? " (used)" : ""}`).join(", ")) : null,
      statusBadges(m).length ? el("div", { class: "small" }, statusBadges(m).map((s) => s[1]).join(", ")) : null,
      m.markers ? el("div", { class: "small muted" }, plural(m.markers, "activation marker")) : null);
  }

  function playerPanel(view, ctx, seat) {
    let p = view.players[seat];
    const mine = ctx.seat === seat && ctx.live;
    const models = Object.values(view.models || {}).filter((m) => m.seat === seat).sort((a, b) => (a.uid < b.uid ? -1 : 1));
    const count = (x) => (Array.isArray(x) ? x.length : x);
    // A finished match's replay carries every seat's own view: its hand is shown as it was.
    const own = view.seat_views && view.seat_views[seat] ? view.seat_views[seat].players[seat] : null;
    if (!Array.isArray(p.hand) && own && Array.isArray(own.hand)) p = { ...p, hand: own.hand, qhand: own.qhand, quest_deck: own.quest_deck };
    const handPart = Array.isArray(p.hand)
      ? el("div", { class: "wzd-hand", "data-testid": mine ? "my-hand" : `hand-${seat}` }, p.hand.map((c) => clashCard(view, c, { full: true, className: "wzd-hand-card" })))
      : el("span", { class: "wzd-count", "data-testid": `hand-count-${seat}` }, plural(p.hand, "card"));
    const book = p.spellbook.map((s) => `${nameOf(view, "spells", s)}${p.clocks[s] ? ` (clock ${p.clocks[s]})` : ""}`);
    const cooling = Object.entries(p.clocks || {}).filter(([s, v]) => v && !p.spellbook.includes(s)).map(([s, v]) => `${nameOf(view, "spells", s)} (clock ${v})`);
    const stock = [];
    for (const x of p.potions || []) {
      const row = stock.find((r) => r.id === x.id && r.spent === x.spent);
      if (row) row.n += 1; else stock.push({ id: x.id, spent: x.spent, n: 1 });
    }
    const potions = stock.map((x) => {
      const pot = lookup(view, "potions", x.id);
      return el("span", { class: `wzd-potion${x.spent ? " wzd-spent" : ""}`, "data-testid": "potion",
        title: `${x.spent ? "spent" : "unspent"}${pot ? `; level ${pot.level}, range ${pot.range}: ${effectsText(pot.effects)}` : ""}` },
      `${x.n > 1 ? `${x.n}× ` : ""}${pot ? pot.name : title(x.id)}${pot ? ` (L${pot.level}, r${pot.range})` : ""}${x.spent ? " (spent)" : ""}`);
    });
    return el("section", { class: `wzd-player wzd-seat-${seat}`, "data-testid": mine ? "my-panel" : `panel-${seat}` },
      el("h3", {}, el("span", { class: "wzd-dot", style: `background:${SEAT_COLOUR[seat]}` }), ` ${seatLabel(ctx, seat)}${mine ? " (you)" : ""} · ${p.qp} QP`),
      el("div", { class: "wzd-row small" },
        el("span", { "data-testid": `pool-${seat}` }, `Power Pool ${p.pool.light} white / ${p.pool.dark} black`),
        el("span", {}, ` · Spent ${p.spent.light}w/${p.spent.dark}b`),
        el("span", {}, ` · Clash deck ${count(p.deck)}${p.refill_due ? " (refill due)" : ""} · discard ${p.discard.length}`)),
      el("div", {}, el("span", { class: "small muted" }, "Clash hand: "), handPart),
      Array.isArray(p.known_top) && p.known_top.length ? el("div", { class: "small" }, "Known top of the deck: ", p.known_top.map((c) => clashCard(view, c))) : null,
      p.discard.length ? el("details", { class: "small" }, el("summary", {}, `Discard pile (${p.discard.length})`), p.discard.map((c) => clashCard(view, c))) : null,
      el("div", { class: "small" }, `Spellbook (${p.spellbook.length}): `, book.join(", ") || "—", cooling.length ? ` · cooling down: ${cooling.join(", ")}` : ""),
      (p.upkeep || []).length ? el("div", { class: "small" }, "Upkept: ", p.upkeep.map((u) => `${nameOf(view, "spells", u.spell)}${u.paid ? " (paid)" : ""}`).join(", ")) : null,
      el("div", { class: "small" }, "Potions: ", potions.length ? potions : (p.group ? "not chosen yet (secret until both have chosen)" : "—")),
      el("div", { class: "small" }, "Active quests:"),
      el("div", { class: "wzd-quests", "data-testid": `quests-${seat}` }, p.active.map((q) => questCard(view, q))),
      Array.isArray(p.qhand) && p.qhand.length ? el("div", {}, el("div", { class: "small" }, "Quests in hand (before the mulligan):"), el("div", { class: "wzd-quests" }, p.qhand.map((q) => questCard(view, q)))) : (!Array.isArray(p.qhand) && p.qhand ? el("div", { class: "small" }, `${plural(p.qhand, "quest")} in hand (hidden)`) : null),
      el("div", { class: "small muted" }, `Quest deck ${count(p.quest_deck)} · scored ${p.scored.map((q) => nameOf(view, "quests", q)).join(", ") || "none"} · discarded ${p.quest_discard.length}`),
      models.length ? el("div", { class: "wzd-models" }, models.map((m) => modelCard(view, ctx, m))) : null);
  }

  // -- the clash tray ------------------------------------------------------------------------------
  const cardValue = (view, uid) => {
    if (!uid || String(uid).startsWith("blank") || uid === "face-down") return 0;
    const c = lookup(view, "clash_cards", view.cards ? view.cards[uid] : null);
    return c ? (c.upper === "2+" ? 2 : Number(c.upper) || 0) : 0;
  };

  // A side's total line by line: the engine's own lines when its view carries them; otherwise the
  // parts this page can read (cards, Mastery and the spell's modifier or the Attack Bonus, Defense,
  // lower part, reaction) and one line for the rest of the engine's total (traits, statuses, terrain).
  function totalBreakdown(view, c, name) {
    const sd = c[name];
    let lines = Array.isArray(sd.lines) ? sd.lines.map(([label, n]) => [label, n]) : null;
    if (!lines) {
      lines = [];
      const m = view.models[sd.model] || { mastery: 0, defense: 0 };
      if (sd.dark_lord && (sd.swap === null || sd.swap === undefined)) lines.push(["Dark Lord: the card counts", (packOf(view).params || {}).dark_lord_value || 3]);
      else {
        lines.push([`Card ${sd.kept ? cardWord(view, sd.kept) : ""}`.trim(), cardValue(view, sd.kept)]);
        for (const x of sd.extra || []) lines.push([`2+ extra ${cardWord(view, x)}`, cardValue(view, x)]);
      }
      for (const x of sd.emp_cards || []) lines.push([`Empowerment ${cardWord(view, x)}`, cardValue(view, x)]);
      if (sd.early) lines.push(["Lower part (early)", sd.early]);
      if (name === "att") {
        if (c.what === "spell" && c.spell) {
          const sp = lookup(view, "spells", c.spell);
          if (!(m.traits && m.traits.elf !== undefined)) lines.push([`Mastery of ${m.name || "the caster"}`, m.mastery || 0]);
          if (sp) lines.push([`${sp.name} modifier`, sp.modifier]);
        } else if (c.what === "attack" && c.prof) lines.push([`Attack Bonus (${c.prof.name || "attack"})`, c.prof.bonus || 0]);
      } else {
        lines.push([`Defense of ${m.name || "the target"}`, m.defense || 0]);
        if (c.react) lines.push(["Reaction spell", c.react]);
      }
      const known = lines.reduce((t, [, n]) => t + n, 0);
      if (sd.total !== known) lines.push([name === "att" ? "Traits, artifacts and rulings" : "Traits, artifacts, statuses and terrain", sd.total - known]);
    }
    const sign = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
    return el("table", { class: "wzd-lines-table small", "data-testid": `total-${name}` },
      el("tbody", {}, lines.map(([label, n], i) => el("tr", {}, el("td", {}, label), el("td", { class: "wzd-num" }, i === 0 ? String(n) : sign(n)))),
        el("tr", { class: "wzd-total" }, el("td", {}, "Total"), el("td", { class: "wzd-num" }, String(sd.total)))));
  }

  function clashTray(view, ctx) {
    const c = view.clash || view.last_clash;
    if (!c) return null;
    const live = !!view.clash;
    const side = (name) => {
      const sd = c[name];
      if (!sd) return null;
      const empFixed = typeof sd.emp_fixed === "number" ? sd.emp_fixed : (sd.emp_fixed || []).length;
      const known = Array.isArray(sd.emp_known) ? sd.emp_known : [];
      const knownCount = Array.isArray(sd.emp_known) ? sd.emp_known.length : (sd.emp_known || 0);
      return el("div", { class: "wzd-side", "data-testid": `tray-${name}` },
        el("div", {}, el("span", { class: "wzd-dot", style: `background:${SEAT_COLOUR[sd.seat]}` }),
          ` ${name === "att" ? "Attacker" : "Defender"}: ${modelName(view, sd.model)} (${seatLabel(ctx, sd.seat)})`),
        el("div", { class: "wzd-cards" },
          sd.revealed.map((u) => clashCard(view, u, { kept: u === sd.kept, full: false })),
          sd.extra.length ? [" + ", sd.extra.map((u) => clashCard(view, u))] : null,
          sd.swap !== null && sd.swap !== undefined && sd.swap !== sd.kept ? [" swap: ", clashCard(view, sd.swap, { why: "swapped in face down" })] : null,
          sd.emp || empFixed ? [" empower: ",
            // Version 2: cards this side's owner saw with Leadership are known to them (a count to others).
            known.map((u) => clashCard(view, u, { className: "wzd-emp-known", why: "an Empowerment card you saw with Leadership" })),
            Array.from({ length: Math.max(sd.emp || 0, empFixed + knownCount) - known.length }, () => clashCard(view, "face-down", { why: "Empowerment card: hidden from everyone until it is drawn" }))] : null,
          sd.emp_cards && sd.emp_cards.length ? [" empowered: ", sd.emp_cards.map((u) => clashCard(view, u))] : null),
        el("div", { class: "small muted" },
          [sd.adv > 0 ? `Advantage ${sd.adv}` : sd.adv < 0 ? `Disadvantage ${-sd.adv}` : "", sd.early ? `early +${sd.early}` : "",
            sd.kept ? `kept ${cardWord(view, sd.kept)}` : "", sd.swap && sd.swap === sd.kept ? "swapped in from the hand" : ""].filter(Boolean).join(" · ")),
        sd.total !== null && sd.total !== undefined ? totalBreakdown(view, c, name) : null);
    };
    const what = c.spell ? nameOf(view, "spells", c.spell) : c.potion ? nameOf(view, "potions", c.potion) : c.prof ? (c.prof.name || "attack") : c.what;
    return el("section", { class: `wzd-tray${live ? " wzd-live" : ""}`, "data-testid": "clash-tray" },
      el("h4", {}, `${live ? "Clash" : "Last clash"}: ${what}${c.target ? ` on ${modelName(view, c.target)}` : ""}`),
      el("div", { class: "wzd-sides" }, side("att"), side("def")),
      c.net !== null && c.net !== undefined ? el("p", { "data-testid": "clash-result" },
        `Net ${c.net}: ${c.success ? "success" : "failure"}${c.att && c.def && c.att.total !== null && c.def.total !== null ? ` (${c.att.total} against ${c.def.total})` : ""}`) : null);
  }

  // -- the prompt: what this seat is asked, every answer a click --------------------------------------
  function promptBlock(view, ctx, ui, actions, acts) {
    const st = view.queue && view.queue[0];
    if (!actions || !actions.length) return null;
    const step = st ? st.step : "";
    const out = [el("h4", {}, STEP_WORD[step] || title(step))];
    const buttons = (list, opts = {}) => el("div", { class: "wzd-buttons" }, list.map((a, i) => choiceButton(view, ctx, ui, a, i, opts)));
    if (step === "build") {
      const saved = savedFor(view, ctx, "group");
      if (saved.length) {
        out.push(el("p", { class: "small" }, "Your saved Groups (", el("a", { href: "/games/wizarding-duels/groups/" }, "build another"), "):"));
        saved.forEach((s, i) => out.push(el("div", { class: "wzd-group", "data-testid": `saved-group-${i}` },
          el("div", {}, el("strong", {}, s.name), ` · ${groupCost(view.pack, s.action)} of ${view.config.galleons} Galleons · `,
            s.action.models.map((c, j) => `${nameOf(view, "characters", c)}${j === s.action.leader ? " ★" : ""}`).join(", ")),
          choiceButton(view, ctx, ui, s.action, `saved-${i}`, { label: "Use this Group", primary: true }))));
      }
      out.push(el("p", { class: "small" }, "Use a ready-made Group (the engine's group helper builds them within the budget)",
        saved.length ? ":" : [" or ", el("a", { href: "/games/wizarding-duels/groups/", "data-testid": "builder-link" }, "build your own"), ":"]));
      actions.forEach((g, i) => {
        const galleons = groupCost(view.pack, g);
        out.push(el("div", { class: "wzd-group", "data-testid": `group-${i}` },
          el("div", {}, el("strong", {}, `Group ${i + 1}`), ` · ${galleons} of ${view.config.galleons} Galleons`),
          el("ul", { class: "small" }, g.models.map((c, j) => el("li", {}, nameOf(view, "characters", c), j === g.leader ? " ★ Leader" : "",
            g.artifacts[j].length ? ` · ${g.artifacts[j].map((a) => nameOf(view, "artifacts", a)).join(", ")}` : ""))),
          el("div", { class: "small" }, "Spellbook: ", g.spellbook.map((s) => nameOf(view, "spells", s)).join(", ")),
          el("div", { class: "small muted" }, "Quest deck: ", g.quests.map((q) => nameOf(view, "quests", q)).join(", ")),
          choiceButton(view, ctx, ui, g, i, { label: "Use this Group", primary: true })));
      });
      return out;
    }
    if (step === "stock") {
      out.push(el("p", { class: "small" }, "Choose your six potions (secret until both have chosen):"));
      savedFor(view, ctx, "potions").forEach((s, i) => out.push(el("div", { class: "wzd-group", "data-testid": `saved-stock-${i}` },
        el("span", { class: "small" }, el("strong", {}, s.name), ": ", s.action.potions.map((p) => nameOf(view, "potions", p)).join(", "), " "),
        choiceButton(view, ctx, ui, s.action, `saved-${i}`, { label: "Take your saved Stock", primary: true }))));
      actions.forEach((a, i) => out.push(el("div", { class: "wzd-group" },
        el("span", { class: "small" }, a.potions.map((p) => nameOf(view, "potions", p)).join(", "), " "),
        choiceButton(view, ctx, ui, a, i, { label: "Take this Stock" }))));
      return out;
    }
    if (step === "choose_map") {
      out.push(el("div", { class: "wzd-previews" }, actions.map((a, i) => {
        const mp = lookup(view, "maps", a.map);
        const colour = mp ? Object.keys(mp.halves[0].nexus).find((c) => mp.halves[1].nexus[c]) : null;
        return el("div", { class: "wzd-preview-box" }, colour ? boardPreview(view, a.map, colour) : null, choiceButton(view, ctx, ui, a, i));
      })));
      return out;
    }
    if (step === "choose_joining") {
      out.push(el("p", { class: "small" }, "Your Zone is shaded in each preview."));
      out.push(el("div", { class: "wzd-previews" }, actions.map((a, i) => el("div", { class: "wzd-preview-box" },
        boardPreview(view, view.map, a.nexus, a.half), choiceButton(view, ctx, ui, a, i)))));
      return out;
    }
    if (step === "place_challenge") {
      out.push(el("p", { class: "wzd-prompt" }, `Click a lit space to place a Challenge overlay, Mystery side up (${actions.length} legal spaces).`));
      return out;
    }
    if (step === "place_terrain") {
      out.push(el("p", { class: "wzd-prompt" }, "Pick the overlay's secret type, then click a lit space (the other player sees only a Mystery overlay)."));
      out.push(el("div", { class: "wzd-buttons" }, ["difficult", "obscuring", "dangerous"].map((t) => el("button", {
        class: `wzd-pick${ui.terrain === t ? " wzd-selected" : ""}`, "data-testid": `terrain-${t}`,
        onclick: () => { ui.terrain = t; redraw(); } }, TERRAIN_WORD[t]))));
      return out;
    }
    if (step === "deploy") {
      const waiting = [...new Set(actions.map((a) => a.model))];
      if (!ui.pick || !waiting.includes(ui.pick)) ui.pick = waiting[0];
      out.push(el("p", { class: "wzd-prompt" }, "Pick a model, then click a lit Arrival Space."));
      out.push(el("div", { class: "wzd-buttons" }, waiting.map((u) => el("button", {
        class: `wzd-pick${ui.pick === u ? " wzd-selected" : ""}`, "data-testid": `deploy-pick-${u}`,
        onclick: () => { ui.pick = u; redraw(); } }, modelName(view, u)))));
      return out;
    }
    if (step === "mulligan") {
      const hand = view.players[ctx.seat].qhand;
      out.push(el("p", { class: "wzd-prompt" }, "Click quests to put back and redraw, then confirm (secret until both have decided)."));
      out.push(el("div", { class: "wzd-quests" }, hand.map((q) => questCard(view, q, {
        selected: ui.discard.includes(q),
        onclick: () => { ui.discard = ui.discard.includes(q) ? ui.discard.filter((x) => x !== q) : [...ui.discard, q]; redraw(); },
      }))));
      const chosen = actions.find((a) => a.discard.length === ui.discard.length && a.discard.every((q) => ui.discard.includes(q)));
      if (chosen) out.push(choiceButton(view, ctx, ui, chosen, 0, { primary: true }));
      return out;
    }
    if (step === "activate") {
      out.push(el("p", { class: "wzd-prompt" }, "Your activation: click a ringed model on the board or a button."));
      out.push(buttons(actions));
      return out;
    }
    if (step === "act") {
      const a = view.act;
      const m = a ? view.models[a.model] : null;
      const left = a ? a.left : {};
      out.push(el("p", { class: "wzd-prompt" }, `${m ? m.name : "Your model"}: ${["move", "advanced", "quick"].map((k) => `${title(k)} ${left[k] ? "✓" : "—"}`).join(" · ")}${a && a.basic_used ? " · Basic Combat Spell used" : ""}. Lit spaces are moves; ringed models are targets.`));
      const groups = new Map();
      for (const x of actions) {
        if ((x.type === "move" && !x.dangerous) || x.type === "end") continue;
        const k = x.type === "move" ? "move by a riskier route" : x.type;
        if (!groups.has(k)) groups.set(k, []);
        groups.get(k).push(x);
      }
      let i = 0;
      const ranges = rangeChoices(view, ctx);
      if (ranges.length) {
        out.push(el("label", { class: "wzd-range small" }, "Show on the board the range of ",
          el("select", { "data-testid": "range", onchange: (e) => { ui.range = e.target.value === "" ? null : ranges[Number(e.target.value)]; redraw(); } },
            el("option", { value: "" }, "—"),
            ranges.map((r, j) => el("option", { value: String(j), selected: ui.range && ui.range.label === r.label ? "selected" : null }, `${r.label} (range ${r.n})`)))));
      }
      if (ui.focus && ui.focus.model) {
        const on = actions.filter((x) => x.target === ui.focus.model);
        if (on.length) out.push(el("div", { class: "wzd-focus-box" }, el("p", { class: "small" }, `On ${modelName(view, ui.focus.model)}:`), buttons(on)));
      }
      if (ui.focus && ui.focus.hex) {
        const at = actions.filter((x) => x.to === ui.focus.hex || x.target === ui.focus.hex);
        if (at.length) out.push(el("div", { class: "wzd-focus-box", "data-testid": "hex-choices" }, el("p", { class: "small" }, `At ${ui.focus.hex}:`), buttons(at)));
      }
      for (const [k, list] of groups) {
        out.push(el("details", { class: "wzd-group-acts", open: list.length <= 16 ? "open" : null },
          el("summary", {}, `${k.includes(" ") ? k[0].toUpperCase() + k.slice(1) : title(k)} (${list.length})`),
          el("div", { class: "wzd-buttons" }, list.map((x) => choiceButton(view, ctx, ui, x, i++)))));
      }
      const end = actions.find((x) => x.type === "end");
      if (end) out.push(el("div", { class: "wzd-buttons" }, choiceButton(view, ctx, ui, end, 0, { label: "End this activation" })));
      return out;
    }
    const c = view.clash;
    const sideOf = (name) => (c && name ? c[name] : null);
    const mine = sideOf(st.side);
    const ask = (text) => out.push(el("p", { class: "wzd-prompt", "data-testid": "question" }, text));
    if (step === "place") {
      ask(`${st.kind === "push" ? `Push ${modelName(view, st.model)} (path step by step)` : st.kind === "teleport" ? `Teleport ${modelName(view, st.model)} up to ${st.n} spaces`
        : st.kind === "gryffindor" ? `Gryffindor: one of your Gryffindor models may move up to ${st.n}` : `Free move for ${modelName(view, st.model)} (up to ${st.n})`}: click a lit space or a button.`);
    } else if (step === "upkeep") {
      const sp = lookup(view, "spells", st.spell);
      ask(`Upkeep ${sp ? sp.name : st.spell}: keep it (it costs ${sp && sp.upkeep !== null ? sp.upkeep : "?"} Power) or drop it?`);
    } else if (step === "react" && c) {
      ask(`${modelName(view, c.att.model)} targets ${modelName(view, c.target)}: cast a reaction spell, or pass?`);
    } else if (step === "empower" && c) {
      const sp = c.spell ? lookup(view, "spells", c.spell) : null;
      const emp = sp && sp.empower;
      ask(`Empower ${sp ? sp.name : "the clash"}${emp ? ` (about ${emp.cost} ${st.side === "def" ? "Power of any colour" : `${emp.colour === "light" ? "white" : emp.colour === "dark" ? "black" : "any"} Power`})` : ""}? The top card of your deck goes face down beside the clash; nobody, you included, sees it until it is added.`);
    } else if ((step === "pick" || step === "brave_pick") && mine) {
      ask(`${st.worst ? "Disadvantage: keep one of the lowest cards" : "Advantage: keep one revealed card"} for ${modelName(view, mine.model)}.`);
    } else if (step === "brave_pick" && view.brave) {
      ask(`Brave: ${modelName(view, view.brave.model)} is past its capacity; keep one revealed card for its Defense test (a total of 3 or more keeps it in play).`);
      out.push(el("div", { class: "wzd-cards" }, view.brave.cards.map((u) => clashCard(view, u, { full: true }))));
    } else if (step === "swap" && mine) {
      ask(`Keep the revealed ${cardWord(view, mine.kept)} for ${modelName(view, mine.model)}, or swap it for a card from your hand (your opponent sees only that you swapped).`);
    } else if ((step === "early" || step === "late") && mine) {
      const cid = view.cards[mine.kept];
      const card = cid ? lookup(view, "clash_cards", cid) : null;
      const lo = card && card.lower;
      ask(`Use the ${step} lower part of ${cardWord(view, mine.kept)}${lo ? ` (${lo.cost ? `${lo.cost} ${lo.colour} Power` : "free"}: ${effectsText(lo.effects)})` : ""}?`);
    } else if (step === "resist") {
      ask(`${modelName(view, st.model)} is about to take ${plural(st.n, "Impact")}: discard up to ${st.max} clash cards to resist one Impact each.`);
    } else if (step === "leadership") {
      ask("Leadership: look at the top three cards of your Clash deck and put them back in any order?");
    } else if (step === "order") {
      ask("Put the three cards back on your deck in this order (top first):");
    } else if (step === "dark_lord") {
      ask("Declare Dark Lord for this clash?");
    } else if (step === "instinctive") {
      ask(`Instinctive Casting: ${modelName(view, st.model)} advances one spell's clock by one more step.`);
    } else if (step === "horcrux_lose") {
      ask(`${modelName(view, st.model)} would be removed: which Horcrux goes instead?`);
    } else if (step === "neutral") {
      ask("Your models' Neutral Cunning: how much of it enters your Power Pool as white (the rest as black)?");
    } else if (step === "horcrux_pick") {
      ask("Horcrux Maker: pick the allies that receive a Horcrux (dealt at random).");
    }
    out.push(buttons(actions));
    return out;
  }

  // Index the actions for the board: which hexes and which models answer a click.
  function boardActs(actions, step, ui) {
    const hex = new Map(), model = new Map();
    const add = (map, k, a) => { if (!map.has(k)) map.set(k, []); map.get(k).push(a); };
    for (const a of actions || []) {
      if (a.type === "move") add(hex, a.to, a);
      else if (a.type === "place_challenge") add(hex, a.hex, a);
      else if (a.type === "place_terrain" && a.terrain === ui.terrain) add(hex, a.hex, a);
      else if (a.type === "deploy" && a.model === ui.pick) add(hex, a.hex, a);
      else if (a.type === "place" && a.hex) add(hex, a.hex, a);
      else if (a.type === "activate") add(model, a.model, a);
      else if (a.target && String(a.target).includes(",")) add(hex, a.target, a); // cast at a space
      else if (a.target) add(model, a.target, a);
    }
    if (step === "deploy" && !ui.pick && actions && actions.length) {
      ui.pick = actions[0].model;
      return boardActs(actions, step, ui);
    }
    return { hex, model };
  }

  // The coin: who won the set-up toss (and so chooses the map), and each round's initiative toss.
  function coinLine(view, ctx) {
    const st = view.queue && view.queue[0];
    if (st && st.step === "coin") {
      return el("p", { class: "wzd-coin", "data-testid": "coin" }, `The coin is tossed ${st.purpose === "setup" ? "to decide who chooses the map" : `for the initiative of round ${(view.round || 0) + 1}`}…`);
    }
    if (view.coin_winner === null || view.coin_winner === undefined) return null;
    const w = seatLabel(ctx, view.coin_winner), o = seatLabel(ctx, 1 - view.coin_winner);
    if (!view.round) {
      return el("p", { class: "wzd-coin", "data-testid": "coin" },
        `Coin toss: ${w} won. ${w} chooses the map, places the first Challenge and deploys first; ${o} chooses the joining and the Zones.`);
    }
    if (view.starting === null || view.starting === undefined) return null;
    return el("p", { class: "wzd-coin", "data-testid": "coin" }, `Initiative toss: ${seatLabel(ctx, view.starting)} is the Starting Player of round ${view.round}.`);
  }

  function header(view, ctx, actions) {
    const st = view.queue && view.queue[0];
    const parts = [];
    const res = ctx.match && ctx.match.result;
    if (view.phase === "over") {
      const qp = view.players.map((p) => p.qp);
      const text = qp[0] === qp[1] ? `a draw, ${qp[0]} to ${qp[1]} Quest Points`
        : `${seatLabel(ctx, qp[0] > qp[1] ? 0 : 1)} wins, ${Math.max(...qp)} to ${Math.min(...qp)} Quest Points`;
      parts.push(el("p", { class: "wzd-result", "data-testid": "result" }, `Game over: ${text}.`));
    } else {
      parts.push(el("p", { class: "wzd-round", "data-testid": "round" },
        view.round ? `Round ${view.round}/3` : "Set-up", ` · ${title(view.phase)}`, st ? ` · ${STEP_WORD[st.step] || title(st.step)}` : "",
        view.starting !== null && view.starting !== undefined ? ` · Starting Player ${seatLabel(ctx, view.starting)}` : "",
        view.round ? ` · activations ${view.turn}/6` : ""));
    }
    let prompt = "";
    if (view.phase !== "over" && ctx.live && ctx.seat !== null && ctx.seat !== undefined) {
      if (actions === null) prompt = (ctx.match.to_move || []).includes(ctx.seat) ? "Loading your choices…" : "";
      else if (actions.length) prompt = "Your move.";
      else {
        const who = (ctx.match.to_move || []).filter((s) => s !== "chance").map((s) => seatLabel(ctx, s)).join(" and ");
        prompt = who ? `Waiting for ${who}…` : "Waiting…";
      }
    }
    if (view.phase !== "over") parts.push(coinLine(view, ctx));
    if (prompt) parts.push(el("p", { class: "wzd-prompt", "data-testid": "prompt" }, prompt));
    void res;
    return el("section", { class: "wzd-head" }, parts);
  }

  // -- tabletop: the people at the table toss the real coin and draw real cards, and enter them here --
  // (entersDice / entersDraws: match.js leaves these outcomes to this page). The coin by its face; cards
  // by name, clicked in the order drawn. The server checks every name against what could be drawn.
  function tabletopEntry(view, ctx, ui) {
    const m = ctx.match;
    const spec = m && m.chance;
    if (!ctx.live || !spec || ctx.mode !== "tabletop") return null;
    const st = view.queue && view.queue[0];
    const enteredBy = m.chance_entered_by || [];
    const mayEnter = ctx.seat !== null && ctx.seat !== undefined && enteredBy.includes(ctx.seat);
    const what = spec.kind === "dice" ? "the coin" : spec.label || "the cards drawn";
    if (!mayEnter) {
      const who = enteredBy.map((x) => seatLabel(ctx, x)).join(" or ") || "the table";
      return el("section", { class: "wzd-entry card", "data-testid": "entry-waiting" }, el("p", {}, `Waiting for ${who} to enter ${what}.`));
    }
    if (spec.kind === "dice") {
      // Heads: the first seat wins the toss; tails: the second (as the page says before the toss).
      const purpose = st && st.purpose === "initiative" ? "starts the round" : "wins the toss and chooses the map";
      return el("section", { class: "wzd-entry card", "data-testid": "coin-entry" },
        el("h4", {}, "Toss the coin"),
        el("p", { class: "small" }, `Heads: ${seatLabel(ctx, 0)} ${purpose}. Tails: ${seatLabel(ctx, 1)} ${purpose}. Which face is up?`),
        el("div", { class: "wzd-buttons" },
          el("button", { type: "button", class: "wzd-coin-face primary", "data-testid": "coin-heads", onclick: () => ctx.recordChance([0]) }, `Heads (${seatLabel(ctx, 0)})`),
          el("button", { type: "button", class: "wzd-coin-face primary", "data-testid": "coin-tails", onclick: () => ctx.recordChance([1]) }, `Tails (${seatLabel(ctx, 1)})`)));
    }
    if (spec.kind !== "draw") return null;
    // The names that could come out of this pile, as people read them.
    const pk = packOf(view);
    let names = [];
    let heading = `Enter ${spec.count === 1 ? "the card" : `the ${spec.count} cards`} drawn`;
    let slots = null;
    if (st && st.step === "unveil") {
      names = [...(pk.challenges || [])].sort();
      heading = "Turn the Challenge overlays face up and enter what each shows";
      slots = (view.overlays || []).filter((o) => o.kind === "challenge").map((o) => `the overlay at ${o.hex}`);
    } else if (st && st.step === "horcrux_deal") {
      names = (pk.artifacts || []).filter((a) => (a.keywords || []).includes("Horcrux")).map((a) => a.id);
      heading = "Deal the Horcruxes and enter each one";
      slots = (st.models || []).map((u) => modelName(view, u));
    } else if (st && st.pile === "quest") {
      const deck = view.players[st.seat] && view.players[st.seat].quest_deck;
      names = Array.isArray(deck) ? [...new Set(deck)] : (pk.quests || []).map((q) => q.id);
      heading = `Enter the quest${spec.count === 1 ? "" : "s"} you drew`;
    } else {
      names = [...(pk.clash_cards || []).map((c) => c.id), "lucky", "jinxed"];
      heading = `Enter the clash card${spec.count === 1 ? "" : "s"} drawn from ${seatLabel(ctx, st ? st.seat : ctx.seat)}'s deck`;
    }
    const chosen = ui.drawn || (ui.drawn = []);
    const full = chosen.length >= spec.count;
    const nameFor = (id) => {
      if (st && st.step === "unveil") return title(id);
      if (st && st.step === "horcrux_deal") return nameOf(view, "artifacts", id);
      if (st && st.pile === "quest") return nameOf(view, "quests", id);
      const c = lookup(view, "clash_cards", id);
      return c ? `${c.upper} · ${title(id)}` : title(id);
    };
    return el("section", { class: "wzd-entry card", "data-testid": "draw-entry" },
      el("h4", {}, heading),
      el("p", { class: "small" }, slots ? `In order: ${slots.join(", ")}.` : `Click ${spec.count === 1 ? "it" : "them"} in the order drawn (${plural(spec.pool, "card")} in the pile).`),
      el("div", { class: "wzd-buttons", "data-testid": "draw-names" }, names.map((id) => el("button", {
        type: "button", class: "wzd-pick", "data-testid": `draw-${id}`, disabled: full || (slots && chosen.includes(id)),
        onclick: () => { if (chosen.length < spec.count) { chosen.push(id); redraw(); } } }, nameFor(id)))),
      el("p", { class: "small", "data-testid": "draw-chosen" }, `Chosen ${chosen.length} of ${spec.count}${chosen.length ? ": " : ""}`,
        chosen.map((id, i) => `${slots && slots[i] ? `${slots[i]}: ` : ""}${nameFor(id)}`).join(", ")),
      el("div", { class: "wzd-buttons" },
        el("button", { type: "button", "data-testid": "draw-undo", disabled: !chosen.length, onclick: () => { chosen.pop(); redraw(); } }, "Undo the last"),
        el("button", { type: "button", class: "primary", "data-testid": "record-draw", disabled: !full,
          onclick: (ev) => { ev.target.disabled = true; Promise.resolve(ctx.recordChance({ cards: chosen.slice() })).finally(() => { ev.target.disabled = false; }); } },
        "Record")));
  }

  function render(root, view, ctx) {
    lastDraw = [root, view, ctx];
    if (!view || !view.players) { root.textContent = "Waiting for the match to start…"; return; }
    const ui = uiFor(root, ctx);
    const actions = legalActions(view, ctx);
    const st = view.queue && view.queue[0];
    const acts = boardActs(actions, st ? st.step : "", ui);
    const me = ctx.seat !== null && ctx.seat !== undefined ? ctx.seat : 0;
    const state = view.phase === "over" ? "over" : !ctx.live ? "replay" : ctx.seat === null || ctx.seat === undefined ? "watching"
      : actions === null ? "loading" : ui.sent ? "sent" : actions.length ? "mine" : "waiting";
    const board = boardSvg(view, ctx, ui, acts);
    const wrap = el("div", { class: "wzd", "data-turn-state": state, "data-step": st ? st.step : "" },
      header(view, ctx, actions),
      el("div", { class: "wzd-main" },
        el("div", { class: "wzd-board-wrap" }, board || el("p", { class: "muted" }, "The map is chosen after the Groups and Stocks are in."),
          clashTray(view, ctx), board ? legend() : null),
        el("div", { class: "wzd-side-col" },
          tabletopEntry(view, ctx, ui),
          state === "mine" ? el("section", { class: "wzd-controls", "data-testid": "controls" }, promptBlock(view, ctx, ui, actions, acts)) : null,
          playerPanel(view, ctx, me), playerPanel(view, ctx, 1 - me))));
    root.replaceChildren(wrap);
  }

  // entersDice / entersDraws: at a real table this page takes the coin by its face and cards by name.
  (window.GameRenderers = window.GameRenderers || {})["wizarding-duels"] = { render, entersDice: true, entersDraws: true };
  // The group builder (wizarding-duels-builder.js) reads the same packs and sentences.
  window.WizardingDuels = { PACKS, effectsText, conditionText, groupCost, title, traitHelp };
})();
