// Epic Spell Wars: Annihilageddon: each wizard's sheet (HP, tokens, Trophy, Ongoing cards, deck and
// discard), the Line-Up and the stacks around it, your hand as readable cards you click to play, and
// every question the engine asks (defend, target, "may", pick a card) as buttons. Moves come only from
// the engine: the view (sent with every websocket frame) carries this seat's legal actions.
// A defense window asks every attacked player at once; each answer stays secret until all are in.
// At a real table (tabletop mode) a draw is entered by clicking the cards that came up.
// The same file draws the card gallery (window.AnnihilageddonGallery).
(function () {
  "use strict";
  // The card set as people read it, generated from engines/annihilageddon/cards/ (a test checks that
  // it matches the engine's set card for card): name, kind, type, cost, vp (a number, or "*" for a
  // formula told in the text), copies, icons, text, and wizard / hp / first where they apply.
  const CARDS = /*catalog*/{"auntie-cinderghast":{"name":"Auntie Cinderghast","kind":"legend","type":"Legend","cost":10,"vp":5,"copies":1,"icons":["attack"],"text":"+3 Power. You may destroy a card from your hand or discard pile. Group Attack: each player gains a Limp Wand."},"backhand-hex":{"name":"Backhand Hex","kind":"main","type":"Spell","cost":2,"vp":0,"copies":2,"icons":["attack"],"text":"+1 Power. Attack: the foe on your right gains a Limp Wand."},"bag-of-tricks":{"name":"Bag of Tricks","kind":"main","type":"Treasure","cost":4,"vp":1,"copies":2,"icons":[],"text":"+1 Power. Gain the top card of the main deck (a Mayhem found this way is destroyed instead)."},"baron-tallyho":{"name":"Baron Von Tallyho","kind":"main","type":"Wizard","cost":6,"vp":2,"copies":2,"icons":[],"text":"+2 Power, and +1 Power for each Ongoing card, token or standee you control."},"baroness-bonebreak":{"name":"Baroness Bonebreak","kind":"legend","type":"Legend","cost":10,"vp":6,"copies":1,"icons":["attack"],"text":"+4 Power. Attack: your weakest foe takes 4 damage. Group Attack: the player(s) with the most HP take 4 damage."},"blood-leech":{"name":"Blood Leech","kind":"main","type":"Creature","cost":5,"vp":2,"copies":3,"icons":["attack"],"text":"Attack: target foe takes 3 damage. Heal 3."},"bouncy-dungeon":{"name":"Bouncy Dungeon","kind":"main","type":"Location","cost":5,"vp":1,"copies":2,"icons":["ongoing"],"text":"Ongoing. You may decline to take part in any Mayhem. Start of turn: +1 Power."},"bully-pulpit":{"name":"Bully Pulpit","kind":"main","type":"Spell","cost":4,"vp":1,"copies":3,"icons":["attack"],"text":"+1 Power. Attack: each weaker foe takes 2 damage."},"burpy":{"name":"Burpy","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["defense"],"text":"+2 Power. Heal 3. Defense: discard this to avoid an Attack and send its effect back to the attacker. VP: 1 per Wizard card you own (at most 6).","wizard":"Chef Ghoulash"},"cosmic-bouncer":{"name":"Cosmic Bouncer","kind":"main","type":"Creature","cost":6,"vp":2,"copies":2,"icons":["defense"],"text":"+3 Power. Defense: discard this to avoid an Attack; heal 3."},"count-backwards":{"name":"Count Backwards","kind":"legend","type":"Legend","cost":9,"vp":5,"copies":1,"icons":["attack"],"text":"+3 Power. Play the top card of the Mayhem pile again: you are its source. Group Attack: each player passes a card to the player on their left."},"crown-toppler":{"name":"Crown Toppler","kind":"main","type":"Spell","cost":5,"vp":2,"copies":2,"icons":["attack"],"text":"Attack: your strongest foe takes 5 damage."},"crunch":{"name":"Crunch","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["attack","defense"],"text":"+2 Power. Attack: target foe takes 3 damage. Defense: discard this to avoid an Attack and send its effect back to the attacker. VP: 1 per Location you own.","wizard":"Brother Brick"},"deck-sniffer":{"name":"Deck Sniffer","kind":"main","type":"Creature","cost":4,"vp":1,"copies":2,"icons":[],"text":"+1 Power. Reveal the top 3 cards of your deck. Put every Spell among them into your hand (you must) and discard the rest."},"destiny-crowbar":{"name":"Rusty Crowbar of Destiny","kind":"main","type":"Treasure","cost":5,"vp":1,"copies":2,"icons":[],"text":"+2 Power. You may destroy a card in the Line-Up."},"duke-of-drool":{"name":"The Duke of Drool","kind":"legend","type":"Legend","cost":8,"vp":4,"copies":1,"icons":["attack"],"text":"+3 Power. Draw a card. Group Attack: the player(s) with the most HP take 3 damage."},"dwt-butterfingers":{"name":"Butterfingers","kind":"dwt","type":null,"cost":null,"vp":-3,"copies":1,"icons":[],"text":"Discard 2 cards."},"dwt-chronic-ache":{"name":"Chronic Ache","kind":"dwt","type":null,"cost":null,"vp":-3,"copies":1,"icons":["ongoing"],"text":"Ongoing. Start of turn: take 1 damage."},"dwt-extra-dead":{"name":"Extra Dead","kind":"dwt","type":null,"cost":null,"vp":-4,"copies":2,"icons":[],"text":"-4 VP instead of -3. You were really, thoroughly dead."},"dwt-floppy-afterlife":{"name":"Floppy Afterlife","kind":"dwt","type":null,"cost":null,"vp":-3,"copies":2,"icons":[],"text":"Gain a Limp Wand."},"dwt-grudge":{"name":"Grudge","kind":"dwt","type":null,"cost":null,"vp":-3,"copies":2,"icons":[],"text":"The Wizard who killed you takes 8 damage (only if you got this token at that death)."},"dwt-half-baked":{"name":"Half-Baked Resurrection","kind":"dwt","type":null,"cost":null,"vp":-3,"copies":2,"icons":[],"text":"You respawn from this death with 13 HP.","hp":13},"dwt-legend-echo":{"name":"Legend's Echo","kind":"dwt","type":null,"cost":null,"vp":-3,"copies":2,"icons":[],"text":"Resolve the current face-up Legend's Group Attack against yourself alone (if it passes cards, you pass them to yourself)."},"dwt-mayhem-magnet":{"name":"Mayhem Magnet","kind":"dwt","type":null,"cost":null,"vp":-3,"copies":2,"icons":["ongoing"],"text":"Ongoing: you cannot use Defenses against Mayhem Attacks."},"dwt-ouch-again":{"name":"Ouch, Again","kind":"dwt","type":null,"cost":null,"vp":-3,"copies":2,"icons":[],"text":"Take 3 damage (after you respawn)."},"dwt-patchwork":{"name":"Patchwork Return","kind":"dwt","type":null,"cost":null,"vp":-3,"copies":2,"icons":[],"text":"You respawn from this death with 11 HP.","hp":11},"dwt-wand-shy":{"name":"Wand-Shy","kind":"dwt","type":null,"cost":null,"vp":-3,"copies":2,"icons":["ongoing"],"text":"Ongoing: you take 3 extra damage from Wand Attacks."},"elbow-lightning":{"name":"Elbow Lightning","kind":"main","type":"Spell","cost":3,"vp":1,"copies":2,"icons":["attack"],"text":"+1 Power. Attack: the foes to your left and right each take 2 damage."},"fangsworth":{"name":"Fangsworth","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["attack","defense"],"text":"+2 Power. Attack: your strongest foe takes 3 damage. Defense: discard this to avoid an Attack and send its effect back to the attacker. VP: 1 per Legend you own.","wizard":"Vlad the Impolite"},"fatality-fiend":{"name":"Fatality Fiend","kind":"main","type":"Wizard","cost":6,"vp":2,"copies":2,"icons":["attack"],"text":"Attack: target foe takes 4 damage. If this kills them, draw two Dead Wizard Tokens, give them the one you like and shuffle the other back into the stack."},"final-boss-probably":{"name":"The Final Boss, Probably","kind":"legend","type":"Legend","cost":12,"vp":7,"copies":1,"icons":["attack"],"text":"+5 Power. Attack: each foe takes 3 damage. Group Attack: each player destroys a card from their hand and takes 2 damage."},"fizzle":{"name":"Fizzle","kind":"starter","type":null,"cost":0,"vp":0,"copies":15,"icons":[],"text":"Does absolutely nothing. Sad trombone."},"fumbledore":{"name":"Fumbledore the Mild","kind":"main","type":"Wizard","cost":3,"vp":1,"copies":3,"icons":["defense"],"text":"+2 Power. Draw a card. Defense: discard this to avoid an Attack; draw 2 cards."},"gift-shop-of-doom":{"name":"Gift Shop of Doom","kind":"main","type":"Location","cost":3,"vp":1,"copies":2,"icons":["ongoing"],"text":"Ongoing. Whenever you play a Treasure, draw a card."},"gloom-moth":{"name":"Gloom Moth","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["defense"],"text":"+3 Power. Defense: discard this to avoid an Attack and send its effect back to the attacker. VP: 1 per Dead Wizard Token you have (misery loves company).","wizard":"Lady Lamentia"},"glyph":{"name":"Glyph","kind":"starter","type":null,"cost":0,"vp":0,"copies":30,"icons":[],"text":"+1 Power."},"goblet-of-grudges":{"name":"Goblet of Grudges","kind":"main","type":"Treasure","cost":4,"vp":"*","copies":2,"icons":[],"text":"+2 Power. VP: 1 for each Legend you own."},"grandpa-gutsmash":{"name":"Grandpa Gutsmash, First of Champions","kind":"legend","type":"Legend","cost":8,"vp":3,"copies":1,"icons":[],"text":"+3 Power. (The first Legend: he has no Group Attack.)","first":true},"grave-accountant":{"name":"The Grave Accountant","kind":"main","type":"Wizard","cost":4,"vp":1,"copies":2,"icons":[],"text":"+1 Power, and +1 Power for each Dead Wizard Token you have (at most 4)."},"gristle":{"name":"Gristle the Hob","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["attack","defense"],"text":"+2 Power. Attack: target foe discards 2 cards. Defense: discard this to avoid an Attack and send its effect back to the attacker. VP: 1 per Treasure you own (at most 6).","wizard":"Mother Gristle"},"grudge-golem":{"name":"Grudge Golem","kind":"main","type":"Creature","cost":3,"vp":2,"copies":2,"icons":["ongoing"],"text":"Ongoing: you count as having one more Dead Wizard Token (it is not a token). Start of turn: +1 Power."},"gutter-comet":{"name":"Gutter Comet","kind":"main","type":"Spell","cost":5,"vp":2,"copies":3,"icons":["attack"],"text":"+1 Power. Attack: each foe takes 2 damage for each Defense card in their discard pile."},"heal-o-matic":{"name":"Heal-o-Matic","kind":"main","type":"Treasure","cost":3,"vp":1,"copies":2,"icons":[],"text":"+1 Power. Heal 4."},"hedge-wretch":{"name":"Hedge Wretch","kind":"main","type":"Creature","cost":3,"vp":1,"copies":4,"icons":["defense"],"text":"+2 Power. Defense: discard this to avoid an Attack; draw a card and the attacker takes 1 damage."},"hexbat":{"name":"Hexbat","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["defense"],"text":"+2 Power. Heal 2. Defense: discard this to avoid an Attack and send its effect back to the attacker. VP: 1 per Wild Magic you own (at most 6).","wizard":"Count Flapula"},"hoarders-ledger":{"name":"Hoarder's Ledger","kind":"main","type":"Treasure","cost":6,"vp":"*","copies":2,"icons":[],"text":"+3 Power. VP: 1 for each Location you own."},"kiddo-chaos":{"name":"Kiddo Chaos","kind":"main","type":"Wizard","cost":3,"vp":1,"copies":2,"icons":[],"text":"+2 Power. At the end of your turn, heal 3."},"lickity-whatnot":{"name":"Lickity-Whatnot","kind":"main","type":"Wizard","cost":4,"vp":1,"copies":2,"icons":[],"text":"+1 Power. Reveal the top 5 cards of your deck. Discard each that costs 1 or more; put the rest back on top."},"limp-wand":{"name":"Limp Wand","kind":"limp_wand","type":null,"cost":null,"vp":-1,"copies":16,"icons":[],"text":"No text. Just disappointment. -1 VP at the end of the game."},"limpening-curse":{"name":"Limpening Curse","kind":"main","type":"Spell","cost":4,"vp":1,"copies":3,"icons":["attack"],"text":"+2 Power. Attack: each foe gains a Limp Wand."},"lord-tentacular":{"name":"Lord Tentacular","kind":"legend","type":"Legend","cost":9,"vp":4,"copies":1,"icons":["attack"],"text":"+3 Power. Take The Sunken Throne. Group Attack: each player destroys the top card of their deck."},"madame-sneer":{"name":"Madame Sneer","kind":"main","type":"Wizard","cost":5,"vp":2,"copies":3,"icons":[],"text":"+2 Power. You may destroy a card from your hand or discard pile."},"madame-vertigo":{"name":"Madame Vertigo","kind":"legend","type":"Legend","cost":8,"vp":4,"copies":1,"icons":["attack"],"text":"+2 Power. Attack: each foe takes 2 damage. Group Attack: each player discards a card."},"marrow-baths":{"name":"Marrow Baths","kind":"main","type":"Location","cost":4,"vp":1,"copies":2,"icons":["ongoing"],"text":"Ongoing. Start of turn: heal 2. All of your healing is doubled."},"mayhem-afterlife-amnesty":{"name":"Mayhem: Afterlife Amnesty","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":[],"text":"Each player puts one of their Dead Wizard Tokens back into the stack (cards that only count as tokens stay)."},"mayhem-blood-bank":{"name":"Mayhem: Blood Bank","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":[],"text":"Each player, starting with you, may pay 4 HP (only with at least 4) to draw a card, as many times as they like."},"mayhem-charity-gala":{"name":"Mayhem: Charity Gala","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":["attack"],"text":"Attack: the player(s) with the fewest HP heal 5. Any player may use a Defense to deny it to the others."},"mayhem-expando":{"name":"Mayhem: Expando Vision","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":["attack"],"text":"Attack: each player who owns a card costing 5 or more takes 4 damage."},"mayhem-free-lunch":{"name":"Mayhem: Free Lunch","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":2,"icons":[],"text":"Each player may gain the top card of the main deck. Each who does destroys the top card of their own deck."},"mayhem-group-hug":{"name":"Mayhem: Group Hug","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":[],"text":"Each player heals 4."},"mayhem-hot-potato":{"name":"Mayhem: Hot Potato Heads","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":2,"icons":["attack"],"text":"Attack: each player passes a card from their hand to the player on their left."},"mayhem-limp-parade":{"name":"Mayhem: Limp Parade","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":["attack"],"text":"Attack: each player gains a Limp Wand."},"mayhem-mirror-madness":{"name":"Mayhem: Mirror Madness","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":[],"text":"Until the end of this turn, each player is the only target of their own Attacks, whatever the Attack says (they may defend against them)."},"mayhem-neighbourly-dumping":{"name":"Mayhem: Neighbourly Dumping","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":["attack"],"text":"Attack: each player passes a card to the player on their left and a card to the player on their right (with one card, you pick who gets it)."},"mayhem-pity-party":{"name":"Mayhem: Pity Party","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":["attack"],"text":"Attack: the player(s) with the fewest HP draw 2 cards. Any player may use a Defense to deny it to the others."},"mayhem-slap-fight":{"name":"Mayhem: Slap Fight","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":2,"icons":["attack","unavoidable"],"text":"Unavoidable Attack: each player takes 2 damage."},"mayhem-swap-meet":{"name":"Mayhem: Swap Meet Riot","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":["attack"],"text":"Attack: each player passes a card from their hand to the player on their right."},"mayhem-tax-day":{"name":"Mayhem: Tax Day in Hell","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":2,"icons":["attack"],"text":"Attack: the player(s) with the most HP take 3 damage."},"mayhem-tiny-violins":{"name":"Mayhem: Tiny Violins","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":[],"text":"The player(s) with the fewest HP draw 2 cards."},"mayhem-yard-sale":{"name":"Mayhem: Yard Sale","kind":"mayhem","type":"Mayhem","cost":0,"vp":0,"copies":1,"icons":[],"text":"Each player discards a card, then draws a card."},"mind-sieve":{"name":"Mind Sieve","kind":"main","type":"Spell","cost":3,"vp":1,"copies":2,"icons":["attack"],"text":"Attack: target foe discards 2 cards."},"moat-goblin":{"name":"Moat Goblin","kind":"main","type":"Creature","cost":2,"vp":0,"copies":2,"icons":["defense"],"text":"+1 Power. Defense: discard this to avoid an Attack; draw a card."},"mr-wiggles":{"name":"Mr. Wiggles","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["attack","defense"],"text":"+2 Power. Attack: your weakest foe takes 2 damage. Defense: discard this to avoid an Attack and send its effect back to the attacker. VP: 2 per Legend you own.","wizard":"Duchess Wobble"},"murder-arcade":{"name":"Murder Arcade","kind":"main","type":"Location","cost":6,"vp":2,"copies":2,"icons":["ongoing","attack"],"text":"Ongoing. Start of turn: Attack: your strongest foe takes 2 damage."},"nana-pickpocket":{"name":"Nana Pickpocket","kind":"main","type":"Wizard","cost":5,"vp":2,"copies":2,"icons":["attack"],"text":"+2 Power. Attack: target foe puts an Ongoing card they control (your pick) into their discard pile."},"overdue-fine":{"name":"Overdue Fine","kind":"main","type":"Spell","cost":5,"vp":2,"copies":2,"icons":["attack","unavoidable"],"text":"+1 Power. Unavoidable Attack: each foe takes 2 damage."},"pawn-shoppe":{"name":"Ye Olde Pawn Shoppe","kind":"main","type":"Location","cost":4,"vp":1,"copies":2,"icons":["ongoing"],"text":"Ongoing. Start of turn: you may destroy a card from your hand or discard pile."},"pit-weasel":{"name":"Pit Weasel","kind":"main","type":"Creature","cost":4,"vp":1,"copies":4,"icons":["attack"],"text":"+2 Power. Attack: target foe takes 3 damage."},"pocket-volcano":{"name":"Pocket Volcano","kind":"main","type":"Treasure","cost":7,"vp":3,"copies":2,"icons":["attack","unavoidable"],"text":"+1 Power. Unavoidable Attack: each foe takes 3 damage."},"poofy":{"name":"Poofy the Fog","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["defense"],"text":"+2 Power. Defense: discard this to avoid an Attack (no sending back) and draw 2 cards. VP: 1 per Location you own.","wizard":"Cloudy McMist"},"professor-paradox":{"name":"Professor Paradox","kind":"legend","type":"Legend","cost":11,"vp":6,"copies":1,"icons":["attack"],"text":"+4 Power. Gain a card costing 5 or less from the Line-Up and put it into your hand. Group Attack: each player gains a Limp Wand and takes 1 damage."},"pyre-of-regret":{"name":"Pyre of Regret","kind":"main","type":"Spell","cost":6,"vp":2,"copies":2,"icons":["attack","unavoidable"],"text":"Unavoidable Attack: target player (maybe you, weirdo) takes 5 damage."},"queen-quagmire":{"name":"Queen Quagmire","kind":"legend","type":"Legend","cost":11,"vp":6,"copies":1,"icons":["attack"],"text":"+5 Power. Group Attack: each player takes 3 damage."},"questionable-coin":{"name":"Coin of Questionable Origin","kind":"main","type":"Treasure","cost":2,"vp":1,"copies":4,"icons":[],"text":"+2 Power."},"sidewinder-sneeze":{"name":"Sidewinder Sneeze","kind":"main","type":"Spell","cost":2,"vp":0,"copies":2,"icons":["attack"],"text":"+1 Power. Attack: the foe on your left takes 2 damage."},"sir-swapsalot":{"name":"Sir Swapsalot","kind":"main","type":"Wizard","cost":3,"vp":1,"copies":2,"icons":[],"text":"+1 Power. You may swap one of your Dead Wizard Tokens with one of target foe's (you pick both)."},"sister-mercy":{"name":"Sister Mercy Killington","kind":"legend","type":"Legend","cost":9,"vp":5,"copies":1,"icons":["attack"],"text":"+3 Power. Heal 5. Group Attack: each player takes 2 damage."},"skitters":{"name":"Skitters","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["defense"],"text":"+3 Power. Defense: discard this to avoid an Attack and send its effect back to the attacker. VP: 1 per Creature you own (at most 6).","wizard":"Rat King Ralph"},"skull-kebab":{"name":"Skull Kebab","kind":"main","type":"Spell","cost":3,"vp":1,"copies":2,"icons":["attack"],"text":"Attack: your weakest foe takes 3 damage."},"snot-rocket":{"name":"Snot Rocket","kind":"main","type":"Spell","cost":2,"vp":0,"copies":2,"icons":["attack"],"text":"+1 Power. Attack: target foe takes 2 damage."},"sparky":{"name":"Sparky","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["attack","defense"],"text":"+2 Power. Attack: the foes to your left and right each take 1 damage. Defense: discard this to avoid an Attack and send its effect back to the attacker. VP: 1 per Spell you own (at most 6).","wizard":"Volt Vandal"},"spite-tower":{"name":"Spite Tower","kind":"main","type":"Location","cost":5,"vp":2,"copies":2,"icons":["ongoing"],"text":"Ongoing. Whenever you play a Spell, +1 Power."},"sugarsnap":{"name":"Sugarsnap","kind":"main","type":"Wizard","cost":4,"vp":1,"copies":2,"icons":[],"text":"+1 Power. Draw 2 cards, then discard a card from your hand, or put one of your Dead Wizard Tokens back into the stack instead (what it did stays done)."},"sunken-throne":{"name":"The Sunken Throne","kind":"standee","type":null,"cost":null,"vp":0,"copies":1,"icons":[],"text":"Whenever a card you own is destroyed, each foe takes 1 damage."},"tall-poppy-scythe":{"name":"Tall Poppy Scythe","kind":"main","type":"Treasure","cost":6,"vp":2,"copies":2,"icons":["attack"],"text":"If no foe has more HP than you, +3 Power. Otherwise, Attack: each stronger foe takes 4 damage."},"tile-blood-price":{"name":"Blood Price","kind":"tile","type":null,"cost":null,"vp":0,"copies":1,"icons":[],"text":"Once per turn: pay 4 HP (you need at least 4) for +3 Power."},"tile-fizzle-whisperer":{"name":"Fizzle Whisperer","kind":"tile","type":null,"cost":null,"vp":0,"copies":1,"icons":[],"text":"Start of turn: you may destroy a Fizzle from your hand."},"tile-headhunter":{"name":"Headhunter","kind":"tile","type":null,"cost":null,"vp":0,"copies":1,"icons":[],"text":"Whenever you kill a foe, +2 Power."},"tile-menagerie":{"name":"Menagerie","kind":"tile","type":null,"cost":null,"vp":0,"copies":1,"icons":[],"text":"When you play your second different Wizard or Creature in a turn, +2 Power."},"tile-recycler":{"name":"Recycler","kind":"tile","type":null,"cost":null,"vp":0,"copies":1,"icons":[],"text":"Whenever a card you own is destroyed, heal 2."},"tile-thick-skull":{"name":"Thick Skull","kind":"tile","type":null,"cost":null,"vp":0,"copies":1,"icons":[],"text":"Start of turn: heal 1."},"tile-underdog":{"name":"Underdog","kind":"tile","type":null,"cost":null,"vp":0,"copies":1,"icons":[],"text":"Start of turn: if no player has fewer HP than you, draw a card."},"tile-wild-child":{"name":"Wild Child","kind":"tile","type":null,"cost":null,"vp":0,"copies":1,"icons":[],"text":"Wild Magic costs you 2."},"toadstool-tina":{"name":"Toadstool Tina","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["defense"],"text":"+2 Power. Draw a card. Defense: discard this to avoid an Attack and send its effect back to the attacker. VP: 1 per Defense card you own (at most 6).","wizard":"Grizelda Grime"},"trophy":{"name":"Annihilageddon Trophy","kind":"standee","type":null,"cost":null,"vp":0,"copies":1,"icons":[],"text":"Take this when you kill a foe. At the end of each of your turns, draw 6 cards instead of 5, then discard 1."},"twin-skull-gourd":{"name":"Twin-Skull Gourd","kind":"main","type":"Treasure","cost":3,"vp":"*","copies":2,"icons":[],"text":"+2 Power. VP: one of these is worth 0; two are worth 4 together."},"unforgiven-plumber":{"name":"The Unforgiven Plumber","kind":"legend","type":"Legend","cost":10,"vp":5,"copies":1,"icons":["attack"],"text":"+4 Power. Attack: target foe gains a Limp Wand. Group Attack: each player discards 2 cards."},"vulture-hex":{"name":"Vulture Hex","kind":"main","type":"Spell","cost":4,"vp":1,"copies":2,"icons":["attack","unavoidable"],"text":"+1 Power. Unavoidable Attack: your weakest foe gains a Limp Wand and discards a card."},"wand":{"name":"Wand","kind":"starter","type":null,"cost":0,"vp":0,"copies":5,"icons":["attack"],"text":"+1 Power. Attack: target Wizard (you count) takes 1 damage. If this kills them, draw 2 cards."},"wand-of-oinkus":{"name":"Wand of Oinkus","kind":"main","type":"Treasure","cost":3,"vp":1,"copies":2,"icons":["attack"],"text":"+1 Power. Attack: target foe. If they do not avoid it, give them a card from your hand (everyone sees it)."},"wild-magic":{"name":"Wild Magic","kind":"wild_magic","type":null,"cost":3,"vp":1,"copies":16,"icons":[],"text":"Choose one: +2 Power; or play the top card of target foe's deck, then put it in their discard pile (an Ongoing card stays in front of you, and it's yours now)."},"wisp":{"name":"Wisp","kind":"familiar","type":"Familiar","cost":6,"vp":"*","copies":1,"icons":["defense"],"text":"+2 Power. You may destroy a card from your hand or discard pile. Defense: discard this to avoid an Attack and send its effect back to the attacker. VP: 1 per Creature you own (at most 6).","wizard":"Madam Ember"}}/*end*/;

  const KIND_WORDS = {
    starter: "Starter", main: "Main deck", mayhem: "Mayhem", legend: "Legend", familiar: "Familiar",
    wild_magic: "Wild Magic", limp_wand: "Limp Wand", dwt: "Dead Wizard Token", tile: "Ability tile",
    standee: "Standee",
  };
  const GALLERY_ORDER = ["starter", "main", "mayhem", "legend", "familiar", "wild_magic", "limp_wand", "dwt", "tile", "standee"];
  const END_WORDS = {
    legends: "no Legend was left to flip", main_deck: "the main deck could not refill the Line-Up",
    dead_wizard_tokens: "the Dead Wizard Tokens ran out", round_limit: "the round limit was reached",
  };
  const MAX_HP = 25;

  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
    return node;
  };
  const info = (id) => CARDS[id] || { name: id, kind: "unknown", text: "", icons: [] };
  const cardName = (id) => info(id).name;
  const nameOf = (ctx, seat) => {
    const s = ctx.match && ctx.match.seats ? ctx.match.seats.find((x) => x.seat === seat) : null;
    return s ? s.label : `Seat ${seat}`;
  };
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many || one + "s"}`;

  // -- a card ------------------------------------------------------------------------------------
  // opts: action (a legal action; clicking the card sends it), label (what the click does),
  // compact (name and numbers only, the text as a tooltip), count, selected, onclick.
  function card(id, opts = {}) {
    const c = info(id);
    const icons = (c.icons || []).map((i) => el("span", { class: `an-icon an-icon-${i}`, title: i }, i));
    const type = c.type || KIND_WORDS[c.kind] || "";
    const clickable = !!(opts.onclick || opts.action);
    const onclick = opts.onclick || (opts.action ? () => opts.ctx.act(opts.action) : null);
    // Tiles and standees are never owned cards: they score nothing, so they show no VP.
    const vp = c.vp === undefined || c.vp === null || ["tile", "standee"].includes(c.kind) ? null : c.vp;
    const node = el("div", {
      class: `an-card an-kind-${c.kind} ${opts.compact ? "an-compact" : ""} ${clickable ? "an-clickable" : ""} ${opts.selected ? "an-selected" : ""}`,
      "data-card": id, "data-testid": opts.testid || null, role: clickable ? "button" : null, tabindex: clickable ? "0" : null,
      title: opts.compact ? `${c.name} (${type}). ${c.text}` : null,
      "data-action": opts.action ? opts.action.type : null,
      onclick,
      onkeydown: clickable ? (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onclick(ev); } } : null,
    },
    el("div", { class: "an-card-head" },
      el("span", { class: "an-name" }, c.name),
      c.cost !== null && c.cost !== undefined ? el("span", { class: "an-cost", title: "cost in Power" }, `${c.cost}⚡`) : null),
    el("div", { class: "an-type" }, type, icons.length ? " · " : "", icons,
      vp !== null ? el("span", { class: "an-vp", title: "victory points" }, ` ${vp} VP`) : null,
      opts.count > 1 ? el("span", { class: "an-count" }, ` ×${opts.count}`) : null),
    opts.compact ? null : el("div", { class: "an-text" }, c.text),
    c.wizard && !opts.compact ? el("div", { class: "an-wizard small muted" }, `Wizard: ${c.wizard}`) : null,
    opts.label ? el("div", { class: "an-do" }, opts.label) : null);
    return node;
  }

  function counted(ids) {
    const out = [];
    for (const id of ids) {
      const row = out.find((r) => r.id === id);
      if (row) row.n += 1; else out.push({ id, n: 1 });
    }
    return out;
  }

  // -- what the active seat may do now: the view carries the seat's legal actions (no second request) --
  function mainActions(view, ctx) {
    if (!ctx.live || ctx.seat === null || ctx.seat === undefined || view.prompt) return [];
    return (view.legal_actions || []).filter((a) => a.type !== "choose" && a.type !== "defend");
  }

  // The action that answers the open prompt with ``value``: the engine's own (a version-2 defense
  // window answers with "defend", every other prompt with "choose").
  function answer(view, value) {
    const found = (view.legal_actions || []).find((a) => JSON.stringify(a.value) === JSON.stringify(value));
    return found || { type: "choose", value };
  }

  // -- the prompt: every question the engine asks, answered by a click ----------------------------------
  function promptTitle(pr, ctx, view) {
    const src = pr.card ? cardName(pr.card) : null;
    const from = src ? ` (${src})` : "";
    switch (pr.kind) {
      case "defend": {
        const by = pr.attacker === null || pr.attacker === undefined
          ? `You are attacked by ${src || "a Mayhem"}` : `${nameOf(ctx, pr.attacker)} attacks you with ${src}`;
        const none = (pr.choices || []).length <= 1;
        return `${by}: ${none ? "you hold no Defense you can use, so take it." : "defend with a Defense card, or take it."}`;
      }
      case "target":
        return pr.why === "pass_to" ? "You have one card to pass: to whom?" : `Choose a target${from}.`;
      case "yesno":
        return pr.why === "pay" ? `Pay the HP${from}?` : `${src || "A card"} says you may: do it?`;
      case "option": return `Choose one${from}.`;
      case "decline": return `${src} is coming: take part, or decline it?`;
      case "setup": return pr.cat === "tile" ? "Keep one of your Ability tiles." : "Keep one of your Familiars.";
      case "trigger":
        return `Several ${pr.why === "end_of_turn" ? "end-of-turn" : "start-of-turn"} effects: which one resolves next?`;
      case "token": return {
        fatality: "Pick the Dead Wizard Token your victim takes.", give: "Pick one of your Dead Wizard Tokens to give away.",
        take: "Pick the Dead Wizard Token you take.", return: "Pick a Dead Wizard Token to put back.",
      }[pr.why] || "Pick a Dead Wizard Token.";
      case "slot": return pr.why === "gain" ? "Pick the Line-Up card you gain." : "Pick a Line-Up card to destroy.";
      case "card": {
        const whose = pr.of === ctx.seat ? "your" : `${nameOf(ctx, pr.of)}'s`;
        const zone = { hand: "hand", discard: "discard pile", hand_or_discard: "hand or discard pile", ongoing: "Ongoing cards", deck_top: "deck" }[pr.zone] || pr.zone;
        return {
          discard: `Discard a card from your hand${from}.`, destroy: `Destroy a card from ${whose} ${zone}${from}.`,
          give: `Pick a card from your hand to give${from}.`, pass: `Pick a card from your hand to pass${from}.`,
          trophy: "The Trophy: you drew 6, now discard 1.", return: `Pick one of ${whose} Ongoing cards to return${from}.`,
        }[pr.why] || `Pick a card from ${whose} ${zone}${from}.`;
      }
      default: return `Choose${from}.`;
    }
  }

  function choiceButton(pr, value, ctx, view) {
    const act = () => ctx.act(answer(view, value));
    const attrs = { "data-testid": "choice", "data-value": String(value) };
    if (pr.kind === "defend" && value !== "take") {
      return el("span", attrs, card(value, { ctx, onclick: act, label: "Defend with this" }));
    }
    if (pr.kind === "target") {
      const hp = view.players[value] ? ` · ${view.players[value].hp} HP` : "";
      return el("button", { ...attrs, class: "primary", onclick: act }, nameOf(ctx, value) + (value === ctx.seat ? " (you)" : "") + hp);
    }
    if (pr.kind === "option") return el("button", { ...attrs, class: "primary", onclick: act }, pr.labels[value]);
    if (pr.kind === "slot") {
      if (value === "none") return el("button", { ...attrs, onclick: act }, "None");
      return el("span", attrs, card(view.lineup[value], { ctx, onclick: act, label: `Line-Up slot ${value + 1}` }));
    }
    if (pr.kind === "card") {
      if (value === "none") return el("button", { ...attrs, onclick: act }, "None");
      const [zone, id] = value.includes(":") ? value.split(":") : [null, value];
      const where = zone === "token" ? "a Dead Wizard Token" : zone ? `from the ${zone}` : null;
      return el("span", attrs, card(id, { ctx, onclick: act, label: where }));
    }
    if (["setup", "trigger", "token"].includes(pr.kind)) return el("span", attrs, card(value, { ctx, onclick: act, label: "Choose" }));
    const words = { take: "Take it (no Defense)", yes: "Yes", no: "No", participate: "Take part", decline: "Decline" };
    return el("button", { ...attrs, class: value === "take" || value === "no" ? "" : "primary", onclick: act }, words[value] || String(value));
  }

  // Who a prompt waits for: its one seat, or (a defense window) everyone not yet decided.
  function waitingFor(view, pr) {
    if (!pr.seats) return [pr.seat];
    return pr.seats.filter((s) => !(pr.decided || []).includes(s));
  }

  function promptPanel(view, ctx) {
    const pr = view.prompt;
    if (view.phase === "over") return null;
    if (pr && pr.seats && pr.mine !== undefined && ctx.live) {
      const mine = pr.mine === "take" ? "to take the Attack" : `to defend with ${cardName(pr.mine)}`;
      const left = waitingFor(view, pr).map((s) => nameOf(ctx, s)).join(", ");
      return el("p", { class: "an-prompt an-waiting", "data-testid": "defense-chosen" },
        `You chose ${mine}; it stays hidden until every attacked player has decided (waiting for ${left}).`);
    }
    if (pr && pr.choices && ctx.live && waitingFor(view, pr).includes(ctx.seat)) {
      const choices = pr.choices;
      // "Take it" last: the Defense cards first, then the plain answer.
      const ordered = pr.kind === "defend" ? [...choices.filter((c) => c !== "take"), "take"] : choices;
      return el("section", { class: "an-prompt an-mine", "data-testid": "prompt", "data-kind": pr.kind },
        el("p", { class: "an-prompt-text" }, promptTitle(pr, ctx, view)),
        pr.card && pr.kind !== "setup" ? el("div", { class: "an-prompt-source" }, card(pr.card, {})) : null,
        pr.seats && pr.seats.length > 1
          ? el("p", { class: "small muted", "data-testid": "defense-together" },
            `Everyone attacked decides at the same time (${pr.seats.map((s) => nameOf(ctx, s)).join(", ")}); nobody sees a choice until all are in.`)
          : null,
        pr.kind === "defend" && choices.length === 1 && (pr.can_defend === false || (pr.can_defend && pr.can_defend[String(ctx.seat)] === false))
          ? el("p", { class: "small muted" }, "No Defense can be used against this Mayhem.") : null,
        el("div", { class: "an-choices" }, ordered.map((v) => choiceButton(pr, v, ctx, view))));
    }
    if (pr) {
      const what = pr.kind === "defend" ? "decide whether to defend" : "choose";
      const who = waitingFor(view, pr).map((s) => nameOf(ctx, s)).join(", ");
      return el("p", { class: "an-prompt an-waiting", "data-testid": "waiting" },
        `Waiting for ${who} to ${what}${pr.card ? ` (${cardName(pr.card)})` : ""}.`);
    }
    if (view.waiting_for && !(ctx.mode === "tabletop" && ctx.live)) return el("p", { class: "an-prompt an-waiting small muted" }, `Dealing: ${view.waiting_for}.`);
    if (view.active === ctx.seat && ctx.live && !view.waiting_for) {
      return el("p", { class: "an-prompt an-mine", "data-testid": "your-turn" },
        `Your turn: ${view.turn.power} Power. Click a card in your hand to play it, a card in the Line-Up or a stack to buy it, then end your turn.`);
    }
    if (view.active !== null && view.active !== undefined) {
      return el("p", { class: "an-prompt an-waiting", "data-testid": "waiting" }, `${nameOf(ctx, view.active)}'s turn.`);
    }
    return null;
  }

  // -- tabletop: enter a draw by clicking the cards that came up -------------------------------------------
  let picking = { key: null, cards: [] };

  function drawCandidates(view, ctx, label) {
    const all = (kinds) => Object.keys(CARDS).filter((id) => kinds.includes(CARDS[id].kind));
    let m = label.match(/^Seat (\d+) draws/);
    if (m) {
      const p = view.players[Number(m[1])];
      return { ids: counted([...(p.deck_cards || [])]), where: "your deck" };
    }
    m = label.match(/^Top of seat (\d+)'s deck/);
    if (m) {
      const p = view.players[Number(m[1])];
      if (p.deck_cards) return { ids: counted([...p.deck_cards]), where: "the deck" };
      return { ids: all(["starter", "main", "wild_magic", "limp_wand", "legend", "familiar"]).map((id) => ({ id, n: null })), where: "the deck" };
    }
    if (/Line-Up|main deck/.test(label)) return { ids: all(["main", "mayhem"]).map((id) => ({ id, n: null })), where: "the main deck" };
    if (/Legend/.test(label)) return { ids: all(["legend"]).filter((id) => !CARDS[id].first).map((id) => ({ id, n: null })), where: "the Legend stack" };
    if (/Dead Wizard Token/.test(label)) return { ids: all(["dwt"]).map((id) => ({ id, n: null })), where: "the Dead Wizard Token stack" };
    // A deal comes from the box: never a card this seat already holds or was dealt.
    const mine = ctx.seat !== null && ctx.seat !== undefined ? view.players[ctx.seat] : null;
    const notMine = (cat) => (id) => !mine || (id !== mine[cat] && !(mine[`${cat}_dealt`] || []).includes(id));
    if (/tiles/.test(label)) return { ids: all(["tile"]).filter(notMine("tile")).map((id) => ({ id, n: null })), where: "the Ability tiles" };
    if (/familiars/.test(label)) return { ids: all(["familiar"]).filter(notMine("familiar")).map((id) => ({ id, n: null })), where: "the Familiars" };
    return { ids: Object.keys(CARDS).map((id) => ({ id, n: null })), where: "the cards" };
  }

  function drawEntry(view, ctx) {
    const m = ctx.match;
    const spec = m && m.chance;
    if (!ctx.live || !spec || spec.kind !== "draw" || ctx.mode !== "tabletop") return null;
    const label = spec.label || view.waiting_for || "";
    const enteredBy = m.chance_entered_by || [];
    const count = plural(spec.count, "card");
    if (ctx.seat === null || ctx.seat === undefined || !enteredBy.includes(ctx.seat)) {
      const who = enteredBy.map((s) => nameOf(ctx, s)).join(" or ") || "nobody";
      return el("p", { class: "an-prompt an-waiting", "data-testid": "draw-waiting" },
        `${label}: waiting for ${who} to enter the ${count} that came up.`);
    }
    const key = `${m.id}:${m.head_seq}`;
    if (picking.key !== key) picking = { key, cards: [] };
    const { ids, where } = drawCandidates(view, ctx, label);
    let section;
    function build() {
      const chosen = picking.cards;
      const full = chosen.length === spec.count;
      const left = (id, n) => (n === null ? Infinity : n - chosen.filter((c) => c === id).length);
      const add = (id) => () => {
        if (!full) { picking.cards = [...chosen, id]; section.replaceWith((section = build())); }
      };
      const remove = (i) => () => { picking.cards = chosen.filter((_, j) => j !== i); section.replaceWith((section = build())); };
      return el("section", { class: "an-draw", "data-testid": "draw-entry" },
        el("h3", {}, `${label}: ${count}`),
        el("p", { class: "an-prompt an-mine", "data-testid": "draw-prompt" },
          `Click the ${count} that came up from ${where}${spec.count > 1 ? ", in the order they came" : ""}.`),
        el("div", { class: "an-row an-wrap", "data-testid": "draw-cards" }, ids.map(({ id, n }) => {
          const can = !full && left(id, n) > 0;
          return card(id, { compact: true, count: n, onclick: can ? add(id) : null, testid: "draw-card" });
        })),
        el("p", { class: "small", "data-testid": "draw-chosen" }, `Chosen ${chosen.length} of ${spec.count}`,
          chosen.length ? " (click one to take it back):" : ""),
        el("div", { class: "an-row an-wrap" }, chosen.map((c, i) => card(c, { compact: true, selected: true, onclick: remove(i) }))),
        el("button", {
          class: "primary", type: "button", "data-testid": "record-draw", disabled: !full,
          onclick: (ev) => { ev.target.disabled = true; ctx.recordChance({ cards: picking.cards }).then(() => { ev.target.disabled = false; }); },
        }, "Record the draw"));
    }
    section = build();
    return section;
  }

  // -- the table ---------------------------------------------------------------------------------------
  function tableCenter(view, ctx, actions) {
    const buy = (pred) => actions.find((a) => a.type === "buy" && pred(a));
    const lineup = view.lineup.map((id, i) => {
      const a = buy((x) => x.from === "lineup" && x.slot === i);
      return el("div", { class: "an-slot", "data-testid": `lineup-${i}` },
        id ? card(id, { ctx, action: a, label: a ? `Buy for ${info(id).cost}` : null }) : el("div", { class: "an-card an-empty" }, "empty"));
    });
    const leg = view.legend;
    const legA = buy((x) => x.from === "legend");
    const wmA = buy((x) => x.from === "wild_magic");
    const stacks = el("div", { class: "an-stacks" },
      el("div", { class: "an-stack", "data-testid": "legend-stack" },
        el("h4", {}, "Legends"),
        leg.up ? card(leg.up, { ctx, action: legA, label: legA ? `Buy for ${info(leg.up).cost}` : null }) : el("div", { class: "an-card an-back" }, "face down"),
        el("p", { class: "small muted" }, `${plural(leg.down, "Legend")} face down below`)),
      el("div", { class: "an-stack", "data-testid": "wild-magic-stack" },
        el("h4", {}, "Wild Magic"),
        view.wild_magic > 0 ? card("wild-magic", { ctx, action: wmA, compact: true, label: wmA ? "Buy" : null }) : el("div", { class: "an-card an-empty" }, "none left"),
        el("p", { class: "small muted" }, `${view.wild_magic} left`)),
      el("div", { class: "an-stack", "data-testid": "limp-wand-stack" },
        el("h4", {}, "Limp Wands"),
        view.limp_wands > 0 ? card("limp-wand", { compact: true }) : el("div", { class: "an-card an-empty" }, "none left"),
        el("p", { class: "small muted" }, `${view.limp_wands} left`)),
      el("div", { class: "an-stack", "data-testid": "other-stacks" },
        el("h4", {}, "Piles"),
        el("p", { class: "small" }, `Main deck: ${view.main_count}`),
        el("p", { class: "small" }, `Dead Wizard Tokens: ${view.dwt_count}`),
        el("p", { class: "small" }, `Mayhem pile: ${view.mayhem_pile.length}`,
          view.mayhem_pile.length ? ` (top: ${cardName(view.mayhem_pile[view.mayhem_pile.length - 1])})` : ""),
        el("p", { class: "small" }, `Destroyed: ${view.destroyed.length}`)));
    return el("section", { class: "an-center" },
      el("h3", {}, "Line-Up"),
      el("div", { class: "an-row an-wrap an-lineup", "data-testid": "lineup" }, lineup),
      view.mayhem_now ? el("div", { class: "an-mayhem-now", "data-testid": "mayhem-now" }, el("strong", {}, "Mayhem now: "), card(view.mayhem_now, {})) : null,
      stacks);
  }

  function playArea(view, ctx) {
    const t = view.turn;
    if (view.active === null || view.active === undefined) return null;
    const defending = view.defending.length
      ? el("p", { class: "small" }, "Defending: ", view.defending.map(([s, c]) => el("span", {}, `${nameOf(ctx, s)} with `, card(c, { compact: true }))))
      : null;
    const shown = view.last_defense && !view.prompt ? view.last_defense : null;
    const lastWindow = shown && shown.choices.length
      ? el("p", { class: "small", "data-testid": "last-defense" }, `Defenses shown${shown.card ? ` against ${cardName(shown.card)}` : ""}: `,
        shown.choices.map(([s, c], i) => el("span", {}, i ? "; " : "", `${nameOf(ctx, s)} `,
          c === "take" ? "took it" : el("span", {}, "defended with ", card(c, { compact: true })))))
      : null;
    const passing = Object.entries(view.passing || {}).map(([s, cs]) =>
      el("p", { class: "small" }, `${nameOf(ctx, Number(s))} passes `, cs.map((c) => card(c, { compact: true }))));
    return el("section", { class: "an-play", "data-testid": "play-area" },
      el("h3", {}, `${nameOf(ctx, view.active)} is playing · `, el("span", { "data-testid": "power" }, `${t.power} Power`)),
      el("div", { class: "an-row an-wrap" }, t.played.length ? t.played.map((c) => card(c, { compact: true })) : el("span", { class: "muted small" }, "No card played yet.")),
      defending, lastWindow, passing);
  }

  function playerPanel(view, ctx, p, seat, actions) {
    const me = seat === ctx.seat;
    const hpPct = Math.max(0, Math.min(100, (p.hp / MAX_HP) * 100));
    const fam = p.familiar ? info(p.familiar) : null;
    const famA = me ? actions.find((a) => a.type === "buy" && a.from === "familiar") : null;
    const actA = me ? actions.find((a) => a.type === "activate") : null;
    const top = p.discard.length ? p.discard[p.discard.length - 1] : null;
    const hand = p.hand || (view.seat_views && view.seat_views[seat] ? view.seat_views[seat].players[seat].hand : null);
    return el("section", {
      class: `an-player an-seat-${seat} ${view.active === seat ? "an-active" : ""} ${me ? "an-me" : ""}`, "data-testid": `player-${seat}`,
    },
    el("h4", {}, el("span", { class: `seat-chip an-chip-${seat}` }, nameOf(ctx, seat) + (me ? " (you)" : "")),
      p.trophy ? el("span", { class: "an-trophy", "data-testid": `trophy-${seat}`, title: info("trophy").text }, "🏆 Trophy") : null,
      el("span", { class: "an-hp", "data-testid": `hp-${seat}` }, `${p.hp} HP`)),
    el("div", { class: "an-hp-bar" }, el("span", { style: `width:${hpPct}%` })),
    el("p", { class: "small an-wizard-line" },
      fam ? `Wizard: ${fam.wizard || "?"}` : "Wizard: not yet chosen",
      p.standee && p.standee !== "trophy" ? ` · standee ${cardName(p.standee)}` : ""),
    el("p", { class: "small", "data-testid": `counts-${seat}` },
      `Hand ${p.hand_count} · deck ${p.deck_count} · discard ${p.discard.length}`,
      p.deck_top && p.deck_top.length ? ` · known on top: ${p.deck_top.map(cardName).join(", ")}` : "",
      top ? " · discard top: " : "", top ? el("span", { class: "an-inline-card", title: info(top).text }, cardName(top)) : null),
    el("div", { class: "an-row an-wrap an-kit" },
      p.tile ? el("div", { "data-testid": `tile-${seat}` }, card(p.tile, {
        ctx, compact: !me, action: actA, label: actA ? "Use it" : null,
      })) : el("div", { class: "an-card an-back an-compact" }, "Ability tile (hidden)"),
      p.familiar ? el("div", { "data-testid": `familiar-${seat}` }, card(p.familiar, {
        ctx, compact: !me, action: famA, label: famA ? "Buy for 6" : p.familiar_bought ? "bought" : "not bought",
      })) : el("div", { class: "an-card an-back an-compact" }, "Familiar (hidden)")),
    p.ongoing.length ? el("div", { "data-testid": `ongoing-${seat}` }, el("h5", {}, "Ongoing"),
      el("div", { class: "an-row an-wrap" }, p.ongoing.map((c) => card(c, { compact: true })))) : null,
    p.dwts.length ? el("div", { "data-testid": `tokens-${seat}` }, el("h5", {}, `Dead Wizard Tokens (${p.dwts.length})`),
      el("div", { class: "an-row an-wrap" }, p.dwts.map((c) => card(c, { compact: true })))) : null,
    !me && hand ? el("div", { "data-testid": `shown-hand-${seat}` }, el("h5", {}, "Hand"),
      el("div", { class: "an-row an-wrap" }, hand.map((c) => card(c, { compact: true })))) : null);
  }

  function myHand(view, ctx, actions) {
    if (ctx.seat === null || ctx.seat === undefined) return null;
    const p = view.players[ctx.seat];
    if (!p || !p.hand) return null;
    const plays = new Map(actions.filter((a) => a.type === "play").map((a) => [a.card, a]));
    const end = actions.find((a) => a.type === "end_turn");
    return el("section", { class: "an-hand", "data-testid": "hand" },
      el("h3", {}, `Your hand (${p.hand.length})`, end ? " " : null,
        end ? el("button", { class: "primary", "data-testid": "end-turn", onclick: () => ctx.act(end) }, "End turn") : null),
      el("div", { class: "an-row an-wrap" }, p.hand.length
        ? p.hand.map((c) => card(c, { ctx, action: plays.get(c), label: plays.get(c) ? "Play" : null }))
        : el("span", { class: "muted small" }, "Empty.")));
  }

  function result(view, ctx) {
    const r = view.result;
    if (!r) return null;
    const winners = r.winners.map((s) => nameOf(ctx, s)).join(" and ");
    const order = [...r.placements.keys()].sort((a, b) => r.placements[a] - r.placements[b]);
    return el("section", { class: "an-result", "data-testid": "result" },
      el("h3", {}, `Game over: ${winners} win${r.winners.length > 1 ? "" : "s"}.`),
      el("p", { class: "small" }, `The game ended because ${END_WORDS[r.end_reason] || r.end_reason}.`),
      el("table", { class: "list" }, el("thead", {}, el("tr", {}, ["Place", "Wizard", "VP", "Legends", "Tokens"].map((h) => el("th", {}, h)))),
        el("tbody", {}, order.map((s) => el("tr", { "data-testid": `score-${s}` },
          el("td", {}, String(r.placements[s])), el("td", {}, nameOf(ctx, s)), el("td", {}, String(r.scores[s])),
          el("td", {}, String(r.legends[s])), el("td", {}, String(r.dwts[s])))))));
  }

  function render(root, view, ctx) {
    const actions = mainActions(view, ctx);
    const seats = view.players.map((_, s) => s);
    // Your own sheet first, then the others clockwise from you.
    const me = ctx.seat === null || ctx.seat === undefined ? 0 : ctx.seat;
    const order = seats.map((k) => (me + k) % seats.length);
    const parts = [
      result(view, ctx),
      el("p", { class: "small muted", "data-testid": "status-line" },
        view.phase === "setup" ? "Setting up" : `Round ${view.round}`,
        view.max_rounds ? ` of at most ${view.max_rounds}` : "",
        view.first !== null && view.first !== undefined ? ` · ${nameOf(ctx, view.first)} went first` : "",
        view.waiting_for ? ` · ${view.waiting_for}` : ""),
      drawEntry(view, ctx),
      promptPanel(view, ctx),
      myHand(view, ctx, actions),
      playArea(view, ctx),
      tableCenter(view, ctx, actions),
      el("div", { class: "an-players" }, order.map((s) => playerPanel(view, ctx, view.players[s], s, actions))),
    ];
    root.replaceChildren(el("div", { class: "an-board" }, parts.filter(Boolean)));
  }

  // -- the gallery: every card in the set -------------------------------------------------------------
  function gallery(root) {
    const filter = el("input", { type: "search", placeholder: "Filter by name, type or text", "data-testid": "gallery-filter" });
    const body = el("div", {});
    const total = Object.values(CARDS).reduce((a, c) => a + (c.copies || 1), 0);
    function draw() {
      const q = filter.value.trim().toLowerCase();
      body.replaceChildren(...GALLERY_ORDER.map((kind) => {
        const ids = Object.keys(CARDS).filter((id) => CARDS[id].kind === kind)
          .filter((id) => !q || `${CARDS[id].name} ${CARDS[id].type || ""} ${CARDS[id].text}`.toLowerCase().includes(q))
          .sort((a, b) => (CARDS[a].cost ?? -1) - (CARDS[b].cost ?? -1) || CARDS[a].name.localeCompare(CARDS[b].name));
        if (!ids.length) return "";
        const copies = ids.reduce((a, id) => a + (CARDS[id].copies || 1), 0);
        return el("section", { class: "an-gallery-kind", "data-testid": `gallery-${kind}` },
          el("h2", {}, `${KIND_WORDS[kind]} · ${plural(ids.length, "design")}, ${plural(copies, "card")}`),
          el("div", { class: "an-row an-wrap" }, ids.map((id) => card(id, { count: CARDS[id].copies || 1 }))));
      }));
    }
    filter.addEventListener("input", draw);
    root.replaceChildren(el("p", { class: "muted", "data-testid": "gallery-total" },
      `${Object.keys(CARDS).length} designs, ${total} physical cards.`), filter, body);
    draw();
  }

  // entersDraws: at a real table this page takes draws as clicked cards (match.js leaves them alone).
  (window.GameRenderers = window.GameRenderers || {}).annihilageddon = { render, entersDraws: true, cards: CARDS };
  window.AnnihilageddonGallery = { render: gallery, cards: CARDS };
})();
