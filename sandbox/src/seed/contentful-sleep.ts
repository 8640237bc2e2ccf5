/**
 * "Les yeux fermés" of the sandbox's content space: podcasts, bedtime stories, videos and
 * articles about sleep, in French, with the markup of rich-text.ts for their bodies. Entry ids
 * are `sleep-{slug}`; related entries are given by slug.
 */

export type SleepFormat = 'podcast' | 'histoire' | 'video' | 'article';

export interface SleepSeed {
  slug: string;
  title: string;
  format: SleepFormat;
  episode?: number;
  /** Minutes. */
  duration?: number;
  /** Theme tag names after `theme:`. */
  themes: string[];
  /** YYYY-MM-DD. */
  publishedAt: string;
  excerpt: string;
  body: string[];
  related: string[];
  /** Also tagged 'Coup de cœur' (a tag without a colon). */
  favourite?: boolean;
}

export const SLEEP_THEMES: Record<string, string> = {
  endormissement: 'themeEndormissement',
  respiration: 'themeRespiration',
  relaxation: 'themeRelaxation',
  réveil: 'themeReveil',
  enfants: 'themeEnfants',
  literie: 'themeLiterie',
  rythmes: 'themeRythmes',
};

export const SLEEP_CONTENT: readonly SleepSeed[] = [
  // Podcasts
  {
    slug: 'pourquoi-se-reveille-t-on-a-3-heures-du-matin',
    title: 'Pourquoi se réveille-t-on à 3 heures du matin ?',
    format: 'podcast',
    episode: 1,
    duration: 24,
    themes: ['rythmes'],
    publishedAt: '2024-01-15',
    excerpt:
      'Les yeux grands ouverts au milieu de la nuit, le cerveau qui tourne : ce réveil a une explication, et des parades.',
    body: [
      'Pour ce premier épisode, nous recevons une infirmière spécialisée dans les troubles du sommeil. Elle nous explique pourquoi la fin de nuit est un moment fragile : les cycles y sont plus légers, la température du corps remonte et la moindre préoccupation suffit à nous tirer du sommeil.',
      '## Au programme',
      '- Ce qui se passe dans le corps entre 2 et 4 heures du matin',
      '- Pourquoi regarder l’heure entretient le réveil',
      '- La règle des vingt minutes : se lever plutôt que lutter',
      '- Quand en parler à son médecin',
      '> Le réveil nocturne n’est pas une anomalie : c’est la façon de le vivre qui fait la différence.',
    ],
    related: ['la-respiration-4-7-8-mode-d-emploi', 'les-cycles-du-sommeil-expliques-simplement'],
    favourite: true,
  },
  {
    slug: 'la-respiration-4-7-8-mode-d-emploi',
    title: 'La respiration 4-7-8, mode d’emploi',
    format: 'podcast',
    episode: 2,
    duration: 18,
    themes: ['respiration', 'endormissement'],
    publishedAt: '2024-02-05',
    excerpt:
      'Inspirer quatre temps, retenir sept, expirer huit : une technique simple pour calmer le mental avant de dormir.',
    body: [
      'Cette méthode de respiration, popularisée par les praticiens de la relaxation, ralentit le rythme cardiaque et détourne l’attention des pensées qui tournent en boucle. Nous la pratiquons ensemble, pas à pas, à la fin de l’épisode.',
      '1. Videz l’air de vos poumons par la bouche.',
      '2. Inspirez par le nez en comptant jusqu’à quatre.',
      '3. Retenez votre souffle sept secondes.',
      '4. Expirez lentement par la bouche pendant huit secondes.',
      'Quatre cycles suffisent pour commencer. Si retenir l’air vous gêne, raccourcissez les temps en gardant le même rapport.',
    ],
    related: ['coherence-cardiaque-5-minutes-guidees', 'dix-rituels-pour-s-endormir-plus-vite'],
  },
  {
    slug: 'dormir-a-deux-sans-se-gener',
    title: 'Dormir à deux sans se gêner',
    format: 'podcast',
    episode: 3,
    duration: 31,
    themes: ['literie'],
    publishedAt: '2024-02-26',
    excerpt:
      'Ronflements, horaires décalés, couette volée : comment partager un lit et bien dormir quand même.',
    body: [
      'Un couple sur trois dit mal dormir à cause de l’autre. Avec un conseiller de nos magasins de Lyon, nous passons en revue les solutions concrètes, de la literie aux petites habitudes.',
      '## Les pistes évoquées',
      '- Un matelas à **ressorts ensachés** pour l’indépendance de couchage',
      '- Deux couettes individuelles, à la scandinave',
      '- Un 160 x 200 plutôt qu’un 140 x 190 quand la chambre le permet',
      '- Des bouchons d’oreille en mousse pour le conjoint du ronfleur',
    ],
    related: [
      'bien-choisir-son-matelas-le-guide-complet',
      'choisir-son-oreiller-selon-sa-position',
    ],
  },
  {
    slug: 'siestes-le-bon-moment-la-bonne-duree',
    title: 'Siestes : le bon moment, la bonne durée',
    format: 'podcast',
    episode: 4,
    duration: 22,
    themes: ['rythmes'],
    publishedAt: '2024-03-18',
    excerpt:
      'Micro-sieste, sieste flash ou sieste complète : tout dépend de ce que vous attendez de votre pause.',
    body: [
      'Le creux du début d’après-midi est inscrit dans notre horloge biologique. Encore faut-il savoir en profiter sans compromettre la nuit suivante.',
      '| Sieste | Durée | Effet |',
      '|---|---|---|',
      '| Flash | 5 à 10 minutes | Un regain d’attention immédiat |',
      '| Courte | 15 à 20 minutes | Récupération sans sommeil profond |',
      '| Complète | environ 90 minutes | Un cycle entier, à réserver aux jours de dette de sommeil |',
      'Au-delà de 16 heures, mieux vaut s’abstenir : la pression de sommeil du soir en pâtirait.',
    ],
    related: ['les-cycles-du-sommeil-expliques-simplement'],
  },
  {
    slug: 'le-sommeil-des-ados',
    title: 'Le sommeil des ados',
    format: 'podcast',
    episode: 5,
    duration: 35,
    themes: ['enfants', 'rythmes'],
    publishedAt: '2024-04-08',
    excerpt:
      'Pourquoi ils ne s’endorment pas avant minuit et peinent à se lever : le décalage de l’adolescence expliqué aux parents.',
    body: [
      'À l’adolescence, la sécrétion de mélatonine se décale d’une à deux heures. Ce n’est pas de la mauvaise volonté : leur horloge interne se règle plus tard, alors que les cours commencent tôt.',
      'Nous parlons des besoins réels (huit à dix heures), des écrans dans la chambre et des grasses matinées du week-end, qui soulagent sans trop décaler le rythme si elles restent raisonnables.',
    ],
    related: ['ecrans-lumiere-bleue-et-melatonine', 'le-sommeil-des-tout-petits-mois-par-mois'],
  },
  {
    slug: 'choisir-son-oreiller-selon-sa-position',
    title: 'Choisir son oreiller selon sa position',
    format: 'podcast',
    episode: 6,
    duration: 27,
    themes: ['literie'],
    publishedAt: '2024-04-29',
    excerpt:
      'Sur le dos, sur le côté ou sur le ventre : à chaque dormeur son oreiller, pour une nuque bien soutenue.',
    body: [
      'L’oreiller doit combler l’espace entre la tête et le matelas pour garder la colonne alignée. Sa hauteur et sa fermeté dépendent donc d’abord de votre position préférée.',
      '- **Sur le côté** : un oreiller épais et ferme, souvent en mémoire de forme',
      '- **Sur le dos** : une épaisseur moyenne qui soutient la nuque sans relever la tête',
      '- **Sur le ventre** : un oreiller plat et moelleux, en plumes par exemple',
      'Pensez aussi à le remplacer : un oreiller en fibres se change tous les deux à trois ans.',
    ],
    related: ['dormir-a-deux-sans-se-gener', 'entretenir-sa-couette-et-ses-oreillers'],
  },
  {
    slug: 'ecrans-lumiere-bleue-et-melatonine',
    title: 'Écrans, lumière bleue et mélatonine',
    format: 'podcast',
    episode: 7,
    duration: 29,
    themes: ['endormissement'],
    publishedAt: '2024-05-20',
    excerpt:
      'Le téléphone au lit retarde-t-il vraiment l’endormissement ? Ce que disent les études, et ce qu’on peut faire.',
    body: [
      'La lumière riche en bleu freine la production de mélatonine, l’hormone qui annonce la nuit. Mais le contenu compte autant que l’écran : une série palpitante ou des messages stressants tiennent éveillé bien plus sûrement qu’un livre numérique en mode nuit.',
      'Notre conseil : une heure sans écran avant le coucher, et le téléphone qui dort hors de la chambre.',
    ],
    related: ['le-sommeil-des-ados', 'dix-rituels-pour-s-endormir-plus-vite'],
  },
  {
    slug: 'chaleur-d-ete-garder-la-chambre-fraiche',
    title: 'Chaleur d’été : garder la chambre fraîche',
    format: 'podcast',
    episode: 8,
    duration: 21,
    themes: ['literie', 'endormissement'],
    publishedAt: '2024-06-24',
    excerpt:
      'Volets clos le jour, courant d’air la nuit, linge en lin : nos astuces pour dormir malgré la canicule.',
    body: [
      'Le corps a besoin de perdre un peu de chaleur pour s’endormir. Quand la chambre dépasse 25 °C, le sommeil devient léger et haché.',
      '- Fermez volets et rideaux dès le matin',
      '- Aérez en grand entre 5 et 7 heures, quand l’air est le plus frais',
      '- Préférez une couette légère ou un simple drap en lin',
      '- Une douche tiède, pas froide, avant de vous coucher',
    ],
    related: ['quelle-temperature-pour-bien-dormir'],
  },
  {
    slug: 'reves-ce-que-la-science-en-dit',
    title: 'Rêves : ce que la science en dit',
    format: 'podcast',
    episode: 9,
    duration: 38,
    themes: ['rythmes'],
    publishedAt: '2024-09-09',
    excerpt:
      'Pourquoi rêve-t-on, pourquoi oublie-t-on ses rêves, et que penser des rêves lucides ? Un épisode pour les curieux.',
    body: [
      'Nous rêvons chaque nuit, surtout pendant le sommeil paradoxal, plus long en fin de nuit. Si l’on s’en souvient rarement, c’est que la mémoire ne s’éveille qu’avec nous : seul le rêve interrompu par un réveil a une chance de rester.',
      'Tenir un carnet de rêves au pied du lit suffit souvent à s’en rappeler davantage au bout de quelques semaines.',
    ],
    related: [
      'les-cycles-du-sommeil-expliques-simplement',
      'pourquoi-se-reveille-t-on-a-3-heures-du-matin',
    ],
  },
  {
    slug: 'le-reveil-en-douceur',
    title: 'Le réveil en douceur',
    format: 'podcast',
    episode: 10,
    duration: 19,
    themes: ['réveil'],
    publishedAt: '2024-10-14',
    excerpt:
      'Simulateur d’aube, étirements au lit, verre d’eau : commencer la journée sans sursaut.',
    body: [
      'Un réveil brutal en plein sommeil profond laisse groggy pendant de longues minutes. La lumière progressive d’un simulateur d’aube prépare le corps au lever et rend l’alarme presque superflue.',
      'Nous terminons l’épisode par trois étirements à faire avant même de poser le pied par terre.',
    ],
    related: ['cinq-etirements-doux-avant-de-se-coucher', 'decalage-horaire-retrouver-le-rythme'],
  },
  // Bedtime stories
  {
    slug: 'le-phare-qui-voulait-dormir',
    title: 'Le phare qui voulait dormir',
    format: 'histoire',
    episode: 1,
    duration: 12,
    themes: ['enfants', 'endormissement'],
    publishedAt: '2024-01-29',
    excerpt:
      'Tout au bout de la Bretagne, un vieux phare rêvait de fermer les yeux, rien qu’une nuit.',
    body: [
      'Tout au bout de la pointe, là où la lande rencontre la mer, vivait un phare nommé Gwenaël. Chaque soir, il allumait sa grande lumière et la faisait tourner, tourner, tourner, pour que les bateaux rentrent au port sans se perdre.',
      'Mais Gwenaël était fatigué. Il regardait les maisons du village s’éteindre une à une et se demandait quel effet cela faisait, de fermer les yeux.',
      'Une nuit, la lune s’approcha tout près de lui. « Je veille sur la mer à ta place, murmura-t-elle. Repose-toi. » Et pour la première fois, le phare ferma doucement sa lumière, pendant que la lune posait sur les vagues un long chemin d’argent.',
      'Les bateaux rentrèrent tous, bercés par la houle. Et Gwenaël dormit, dormit, jusqu’au premier cri des mouettes.',
    ],
    related: ['la-foret-aux-lucioles', 'marcel-l-ours-qui-comptait-les-etoiles'],
    favourite: true,
  },
  {
    slug: 'la-foret-aux-lucioles',
    title: 'La forêt aux lucioles',
    format: 'histoire',
    episode: 2,
    duration: 10,
    themes: ['enfants'],
    publishedAt: '2024-03-04',
    excerpt: 'Lila a peur du noir, jusqu’au soir où mille petites lumières viennent l’accompagner.',
    body: [
      'Lila n’aimait pas le moment où l’on éteint la lampe. Le noir lui semblait trop grand, trop plein de bruits qu’elle ne connaissait pas.',
      'Un soir d’été, en ouvrant la fenêtre, elle vit le bois derrière la maison scintiller doucement. Des lucioles ! Des centaines de lucioles qui clignotaient comme pour lui dire bonsoir.',
      'L’une d’elles vint se poser sur le rebord. « Dans le noir, on voit mieux les petites lumières », dit-elle. Lila sourit, se glissa sous sa couette et compta les lucioles, une, deux, trois… jusqu’à ce que ses paupières deviennent lourdes, si lourdes.',
    ],
    related: ['le-phare-qui-voulait-dormir', 'le-petit-nuage-de-capucine'],
  },
  {
    slug: 'le-petit-nuage-de-capucine',
    title: 'Le petit nuage de Capucine',
    format: 'histoire',
    episode: 3,
    duration: 9,
    themes: ['enfants', 'relaxation'],
    publishedAt: '2024-04-15',
    excerpt: 'Un nuage tout doux descend chercher Capucine pour une promenade au-dessus des toits.',
    body: [
      'Ce soir-là, un petit nuage blanc se posa devant la fenêtre de Capucine. Il était rond, moelleux, et sentait le linge propre.',
      '« Monte, dit-il, je t’emmène voir la ville qui s’endort. » Capucine s’installa sur lui comme sur un oreiller, et ils glissèrent au-dessus des toits de Lyon, des deux rivières et des collines.',
      'En bas, les fenêtres s’éteignaient les unes après les autres. Le nuage ralentit, ralentit encore, et Capucine, la joue contre sa douceur, sentit son souffle devenir lent comme le sien.',
    ],
    related: ['la-foret-aux-lucioles'],
  },
  {
    slug: 'le-train-de-nuit-pour-biarritz',
    title: 'Le train de nuit pour Biarritz',
    format: 'histoire',
    episode: 4,
    duration: 15,
    themes: ['relaxation', 'endormissement'],
    publishedAt: '2024-05-27',
    excerpt:
      'Une couchette, le roulis des rails et la France qui défile dans l’obscurité : une histoire pour les grands.',
    body: [
      'Le train quitte la gare d’Austerlitz à la tombée du jour. Dans le compartiment, la couchette est faite, les draps tendus, une petite lampe dessine un cercle doré sur la couverture.',
      'Par la fenêtre, les lumières de la ville s’espacent, puis disparaissent. Il ne reste que le bruit régulier des roues sur les rails, ta-dam, ta-dam, et de temps en temps une gare endormie qui passe comme un souvenir.',
      'Vous n’avez rien à faire. Le train avance pour vous. Laissez vos épaules se relâcher à chaque balancement, votre respiration suivre le rythme des rails. Demain matin, il y aura l’océan.',
    ],
    related: ['la-barque-sur-le-lac-d-annecy', 'la-bibliotheque-sous-la-lune'],
  },
  {
    slug: 'la-bibliotheque-sous-la-lune',
    title: 'La bibliothèque sous la lune',
    format: 'histoire',
    episode: 5,
    duration: 14,
    themes: ['relaxation'],
    publishedAt: '2024-07-08',
    excerpt:
      'Une bibliothèque ancienne, la nuit, où chaque livre raconte son histoire à voix basse.',
    body: [
      'Il existe, dans une petite ville de Bourgogne, une bibliothèque dont le toit est une verrière. Les nuits de pleine lune, la lumière tombe sur les rayonnages et les livres se mettent à chuchoter.',
      'On y entre sans bruit. Le parquet craque à peine. Un fauteuil de velours vous attend près du poêle éteint, avec un plaid plié sur l’accoudoir.',
      'Écoutez : un vieux roman raconte une traversée, un herbier murmure le nom des fleurs, un atlas déroule des rivières. Les voix se mêlent et se font plus lointaines, comme une pluie fine sur la verrière.',
    ],
    related: ['le-train-de-nuit-pour-biarritz'],
  },
  {
    slug: 'marcel-l-ours-qui-comptait-les-etoiles',
    title: 'Marcel, l’ours qui comptait les étoiles',
    format: 'histoire',
    episode: 6,
    duration: 11,
    themes: ['enfants'],
    publishedAt: '2024-09-23',
    excerpt:
      'Avant d’hiberner, Marcel veut compter toutes les étoiles du ciel. Y arrivera-t-il avant de s’endormir ?',
    body: [
      'L’automne était venu et tous les ours de la montagne préparaient leur tanière. Tous, sauf Marcel, assis sur un rocher, le museau levé vers le ciel.',
      '« Je ne peux pas dormir tout l’hiver sans savoir combien il y a d’étoiles », expliqua-t-il à la chouette. Et il se mit à compter. Une étoile, deux étoiles, trois étoiles…',
      'À cent douze, il bâilla. À deux cent trois, il posa la tête sur ses pattes. À trois cent quarante et une, Marcel dormait, bien au chaud dans sa fourrure, et les étoiles, attendries, continuèrent de compter pour lui.',
    ],
    related: ['le-phare-qui-voulait-dormir', 'la-foret-aux-lucioles'],
  },
  {
    slug: 'une-nuit-au-jardin-des-plantes',
    title: 'Une nuit au jardin des Plantes',
    format: 'histoire',
    episode: 7,
    duration: 13,
    themes: ['relaxation', 'enfants'],
    publishedAt: '2024-11-04',
    excerpt:
      'Quand les grilles ferment, les serres s’éveillent doucement : une promenade parmi les plantes endormies.',
    body: [
      'Quand le gardien ferme les grilles du jardin, le silence tombe sur les allées. Seule la grande serre reste tiède, et ses vitres retiennent une buée légère.',
      'À l’intérieur, les fougères se balancent à peine, les orchidées replient leurs pétales, et un bassin reflète la lune entre deux nénuphars.',
      'Asseyez-vous sur le banc de pierre. Respirez l’odeur de terre humide. Tout ici pousse lentement, sans se presser, et vous pouvez faire comme les plantes : vous reposer jusqu’au matin.',
    ],
    related: ['la-bibliotheque-sous-la-lune'],
  },
  {
    slug: 'la-barque-sur-le-lac-d-annecy',
    title: 'La barque sur le lac d’Annecy',
    format: 'histoire',
    episode: 8,
    duration: 16,
    themes: ['relaxation', 'respiration'],
    publishedAt: '2025-01-13',
    excerpt:
      'Une barque qui dérive sur l’eau calme, les montagnes autour : une visualisation pour lâcher prise.',
    body: [
      'Imaginez une barque de bois clair, amarrée à un ponton. Vous vous y allongez, un coussin sous la nuque, une couverture de laine sur les jambes.',
      'La corde se détache toute seule. La barque s’éloigne du bord, portée par un courant si lent qu’on ne le sent pas. À chaque expiration, elle glisse un peu plus loin.',
      'Autour, les montagnes se découpent en ombres bleues sur le ciel. L’eau clapote contre la coque, doucement, régulièrement. Il n’y a nulle part où aller. La barque vous berce, et vous pouvez fermer les yeux.',
    ],
    related: ['le-train-de-nuit-pour-biarritz', 'la-respiration-4-7-8-mode-d-emploi'],
  },
  // Videos
  {
    slug: 'cinq-etirements-doux-avant-de-se-coucher',
    title: 'Cinq étirements doux avant de se coucher',
    format: 'video',
    duration: 8,
    themes: ['relaxation'],
    publishedAt: '2024-02-19',
    excerpt:
      'Une courte séance à faire sur le tapis ou directement sur le lit pour relâcher le dos.',
    body: [
      'Notre coach vous guide dans cinq mouvements lents, sans effort, pour détendre les zones qui accumulent les tensions de la journée.',
      '1. La posture de l’enfant, une minute',
      '2. La torsion allongée, de chaque côté',
      '3. Les genoux ramenés à la poitrine',
      '4. L’étirement du papillon',
      '5. Les jambes contre le mur, trois minutes',
    ],
    related: ['yoga-nidra-la-relaxation-allongee', 'le-reveil-en-douceur'],
  },
  {
    slug: 'coherence-cardiaque-5-minutes-guidees',
    title: 'Cohérence cardiaque : 5 minutes guidées',
    format: 'video',
    duration: 5,
    themes: ['respiration'],
    publishedAt: '2024-03-25',
    excerpt:
      'Six respirations par minute pendant cinq minutes, en suivant le mouvement d’une vague.',
    body: [
      'Inspirez quand la vague monte, expirez quand elle redescend : cinq secondes chacune. Cet exercice, pratiqué le soir, aide à faire retomber la tension avant le coucher.',
    ],
    related: ['la-respiration-4-7-8-mode-d-emploi'],
    favourite: true,
  },
  {
    slug: 'bien-aerer-et-faire-son-lit',
    title: 'Bien aérer et faire son lit',
    format: 'video',
    duration: 4,
    themes: ['literie'],
    publishedAt: '2024-06-03',
    excerpt: 'Ouvrir le lit le matin, tendre le drap housse, gonfler la couette : les bons gestes.',
    body: [
      'Faire son lit dès le lever emprisonne l’humidité de la nuit. Mieux vaut ouvrir grand la couette et la fenêtre une vingtaine de minutes, puis faire le lit.',
    ],
    related: ['entretenir-sa-couette-et-ses-oreillers', 'comment-retourner-son-matelas'],
  },
  {
    slug: 'comment-retourner-son-matelas',
    title: 'Comment retourner son matelas',
    format: 'video',
    duration: 3,
    themes: ['literie'],
    publishedAt: '2024-08-19',
    excerpt: 'Tête-bêche et face sur face : la rotation qui prolonge la vie de votre matelas.',
    body: [
      'Tous les trois mois, faites pivoter votre matelas tête-bêche et, s’il a deux faces de couchage, retournez-le. Les poignées latérales sont faites pour cela : à deux, c’est l’affaire d’une minute.',
      'Les matelas à face unique, comme certains modèles en mémoire de forme, se font seulement pivoter.',
    ],
    related: ['bien-choisir-son-matelas-le-guide-complet', 'bien-aerer-et-faire-son-lit'],
  },
  {
    slug: 'automassage-des-mains-et-du-visage',
    title: 'Automassage des mains et du visage',
    format: 'video',
    duration: 7,
    themes: ['relaxation'],
    publishedAt: '2024-10-28',
    excerpt: 'Quelques pressions douces pour relâcher la mâchoire, le front et les mains.',
    body: [
      'Les tensions se logent souvent dans la mâchoire et le front sans qu’on s’en aperçoive. Ces gestes simples, à faire assis au bord du lit, les dénouent en quelques minutes.',
    ],
    related: ['cinq-etirements-doux-avant-de-se-coucher'],
  },
  {
    slug: 'yoga-nidra-la-relaxation-allongee',
    title: 'Yoga nidra : la relaxation allongée',
    format: 'video',
    duration: 20,
    themes: ['relaxation', 'endormissement'],
    publishedAt: '2025-02-10',
    excerpt: 'Une séance complète, allongé sur le dos, pour parcourir le corps et s’abandonner.',
    body: [
      'Le yoga nidra, ou « sommeil conscient », consiste à porter l’attention sur chaque partie du corps, l’une après l’autre, en restant immobile. Beaucoup s’endorment avant la fin : c’est permis.',
    ],
    related: ['cinq-etirements-doux-avant-de-se-coucher', 'la-barque-sur-le-lac-d-annecy'],
  },
  // Articles
  {
    slug: 'les-cycles-du-sommeil-expliques-simplement',
    title: 'Les cycles du sommeil expliqués simplement',
    format: 'article',
    themes: ['rythmes'],
    duration: 6,
    publishedAt: '2024-01-22',
    excerpt:
      'Sommeil léger, profond, paradoxal : une nuit se compose de quatre à six cycles d’environ 90 minutes.',
    body: [
      '# Les cycles du sommeil',
      'Une nuit de sommeil n’est pas un long tunnel uniforme. Elle se compose de **quatre à six cycles** d’environ *quatre-vingt-dix minutes*, qui s’enchaînent et changent de visage au fil des heures.',
      '## Les étapes d’un cycle',
      '| Stade | Ce qui se passe | Part de la nuit |',
      '|---|---|---|',
      '| Endormissement | Les muscles se relâchent, les pensées s’effilochent | 5 % |',
      '| Sommeil léger | Le rythme cardiaque ralentit, on se réveille encore facilement | 50 % |',
      '| Sommeil profond | Le corps récupère, difficile de se réveiller | 20 % |',
      '| Sommeil paradoxal | Le cerveau s’active, on rêve | 25 % |',
      '### Début et fin de nuit',
      'Le sommeil profond domine les premiers cycles ; le sommeil paradoxal s’allonge vers le matin. C’est pourquoi les rêves du petit matin sont les plus vifs.',
      '#### Le bon moment pour se réveiller',
      'Se réveiller en fin de cycle, pendant le sommeil léger, laisse frais et dispos. Un réveil en plein sommeil profond donne cette sensation de brouillard qu’on appelle l’__inertie du sommeil__.',
      '##### À retenir',
      '- Un cycle dure environ 90 minutes',
      '- Les micro-réveils entre deux cycles sont normaux',
      '- Se coucher à heure régulière aide l’horloge interne',
      '###### Pour aller plus loin',
      'Écoutez notre épisode [Pourquoi se réveille-t-on à 3 heures du matin ?](entry:sleep-pourquoi-se-reveille-t-on-a-3-heures-du-matin) ou consultez les ressources de l’[Institut national du sommeil et de la vigilance](https://institut-sommeil-vigilance.org/).',
    ],
    related: [
      'pourquoi-se-reveille-t-on-a-3-heures-du-matin',
      'siestes-le-bon-moment-la-bonne-duree',
    ],
    favourite: true,
  },
  {
    slug: 'bien-choisir-son-matelas-le-guide-complet',
    title: 'Bien choisir son matelas : le guide complet',
    format: 'article',
    themes: ['literie'],
    duration: 9,
    publishedAt: '2024-03-11',
    excerpt:
      'Ressorts, mousse, latex ou hybride ; ferme ou moelleux ; quelle taille : toutes les questions à se poser.',
    body: [
      'Un matelas accompagne environ **dix ans** de nuits. Voici comment s’y retrouver, sans se laisser impressionner par le jargon.',
      '## 1. La technologie',
      'Chaque technologie a son caractère. Les ressorts ensachés offrent un soutien point par point et une bonne aération :',
      '{{entry:tech-ressorts-ensaches}}',
      'La mémoire de forme épouse le corps et soulage les points de pression :',
      '{{entry:tech-mousse-a-memoire-de-forme}}',
      '## 2. La fermeté',
      'Plus on est lourd, plus on a besoin de fermeté. Un dormeur sur le côté appréciera un accueil plus moelleux au niveau des épaules.',
      '## 3. La taille',
      'Comptez au moins 20 cm de plus que votre taille en longueur. À deux, le 160 x 200 est devenu la norme.',
      '{{asset:asset-guide-matelas}}',
      '## 4. L’essai',
      'Tous nos matelas bénéficient de 100 nuits d’essai : consultez nos [conditions des offres](entry:page-conditions-des-offres) et la page [livraison](entry:page-livraison). La [fiche d’entretien en images](asset:asset-guide-matelas) vous aidera à en prendre soin.',
    ],
    related: ['comment-retourner-son-matelas', 'dormir-a-deux-sans-se-gener'],
  },
  {
    slug: 'dix-rituels-pour-s-endormir-plus-vite',
    title: 'Dix rituels pour s’endormir plus vite',
    format: 'article',
    themes: ['endormissement'],
    duration: 5,
    publishedAt: '2024-05-06',
    excerpt:
      'Des habitudes simples, à adopter une à une, pour que le corps comprenne qu’il est l’heure de dormir.',
    body: [
      'Le cerveau aime les signaux répétés. En répétant chaque soir les mêmes gestes, on lui apprend à basculer vers le sommeil.',
      '1. Se coucher et se lever à heure fixe, même le week-end',
      '2. Baisser les lumières une heure avant le coucher',
      '3. Laisser le téléphone hors de la chambre',
      '4. Prendre une douche tiède',
      '5. Boire une tisane sans théine',
      '6. Lire quelques pages d’un livre papier',
      '7. Noter trois choses agréables de la journée',
      '8. Pratiquer la respiration 4-7-8',
      '9. Garder la chambre entre 16 et 18 °C',
      '10. Se lever si le sommeil ne vient pas après vingt minutes',
      'Inutile de tout adopter d’un coup : choisissez-en deux ou trois et tenez-les une semaine. Le [[entry:sleep-la-respiration-4-7-8-mode-d-emploi]] vous guidera pour le huitième.',
    ],
    related: ['la-respiration-4-7-8-mode-d-emploi', 'ecrans-lumiere-bleue-et-melatonine'],
  },
  {
    slug: 'quelle-temperature-pour-bien-dormir',
    title: 'Quelle température pour bien dormir ?',
    format: 'article',
    themes: ['literie'],
    duration: 4,
    publishedAt: '2024-07-01',
    excerpt: 'Entre 16 et 18 °C dans la chambre, et une couette adaptée à la saison.',
    body: [
      'Pour s’endormir, la température du corps doit baisser d’environ un demi-degré. Une chambre trop chauffée contrarie ce mouvement naturel.',
      '## Le bon réglage',
      '| Saison | Chambre | Couette conseillée |',
      '|---|---|---|',
      '| Hiver | 16 à 18 °C | Chaude, 300 à 400 g/m^2^ |',
      '| Mi-saison | 17 à 19 °C | Tempérée, 200 à 300 g/m^2^ |',
      '| Été | le plus frais possible | Légère, moins de 200 g/m^2^ |',
      'Pensez aussi à aérer chaque jour : le taux de CO~2~ d’une chambre fermée grimpe vite pendant la nuit.',
    ],
    related: ['chaleur-d-ete-garder-la-chambre-fraiche', 'entretenir-sa-couette-et-ses-oreillers'],
  },
  {
    slug: 'le-sommeil-des-tout-petits-mois-par-mois',
    title: 'Le sommeil des tout-petits, mois par mois',
    format: 'article',
    themes: ['enfants'],
    duration: 7,
    publishedAt: '2024-08-26',
    excerpt:
      'De 16 heures par jour à la naissance à une longue nuit vers trois ans : les grandes étapes.',
    body: [
      'Le sommeil du bébé se construit progressivement. Chaque enfant a son rythme, mais les grandes étapes se ressemblent.',
      '| Âge | Sommeil sur 24 heures | Siestes |',
      '|---|---|---|',
      '| 0 à 3 mois | 14 à 17 heures | Nombreuses, jour et nuit |',
      '| 4 à 11 mois | 12 à 15 heures | Deux à trois |',
      '| 1 à 2 ans | 11 à 14 heures | Une à deux |',
      '| 3 à 5 ans | 10 à 13 heures | Une, puis plus du tout |',
      '> Un matelas ferme, sans oreiller ni couette avant un an : c’est la règle de sécurité à retenir.',
      'Nos matelas enfant sont conçus pour cela ; demandez conseil en magasin.',
    ],
    related: ['le-sommeil-des-ados', 'le-phare-qui-voulait-dormir'],
  },
  {
    slug: 'cafe-the-alcool-ce-qui-trouble-vos-nuits',
    title: 'Café, thé, alcool : ce qui trouble vos nuits',
    format: 'article',
    themes: ['endormissement'],
    duration: 5,
    publishedAt: '2024-10-07',
    excerpt:
      'La caféine reste des heures dans l’organisme, et le verre de vin du soir fragmente le sommeil.',
    body: [
      'La caféine met cinq à six heures à être éliminée de moitié. Un café à 16 heures agit donc encore au moment du coucher.',
      'L’alcool, lui, aide parfois à s’endormir, mais il rend la seconde partie de la nuit agitée et réduit le sommeil paradoxal.',
      '- Dernier café avant 14 heures',
      '- Pas de thé noir ni de soda au cola le soir',
      '- Un dîner léger, deux heures avant le coucher',
    ],
    related: ['dix-rituels-pour-s-endormir-plus-vite'],
  },
  {
    slug: 'entretenir-sa-couette-et-ses-oreillers',
    title: 'Entretenir sa couette et ses oreillers',
    format: 'article',
    themes: ['literie'],
    duration: 4,
    publishedAt: '2024-12-02',
    excerpt: 'Lavage, séchage, aération : les bons gestes pour garder un lit sain et gonflant.',
    body: [
      'Une couette se lave deux fois par an, un oreiller en fibres tous les trois mois. Vérifiez l’étiquette : le duvet supporte 40 °C, la plupart des synthétiques 60 °C.',
      'Le séchage est l’étape clé : en machine, à basse température, avec deux balles de tennis propres pour redonner du gonflant.',
      'Et chaque matin, quelques minutes d’aération suffisent à évacuer l’humidité de la nuit.',
    ],
    related: ['bien-aerer-et-faire-son-lit', 'choisir-son-oreiller-selon-sa-position'],
  },
  {
    slug: 'decalage-horaire-retrouver-le-rythme',
    title: 'Décalage horaire : retrouver le rythme',
    format: 'article',
    themes: ['rythmes', 'réveil'],
    duration: 5,
    publishedAt: '2025-03-03',
    excerpt:
      'Lumière du matin, repas à l’heure locale, sieste courte : comment recaler son horloge après un long voyage.',
    body: [
      'L’horloge interne se décale d’environ une heure par jour. Après un vol vers l’est, il faut donc plusieurs jours pour s’adapter.',
      '- Exposez-vous à la lumière du matin à l’arrivée',
      '- Prenez vos repas à l’heure locale dès le premier jour',
      '- Limitez la sieste à vingt minutes',
      'Au retour, un réveil progressif, comme le conseille notre épisode sur le [réveil en douceur](entry:sleep-le-reveil-en-douceur), aide à reprendre pied.',
    ],
    related: ['le-reveil-en-douceur', 'les-cycles-du-sommeil-expliques-simplement'],
  },
];

/** A sleep entry that was never published: `related` of one entry points to it (notResolvable). */
export const UNPUBLISHED_SLEEP: SleepSeed = {
  slug: 'episode-a-venir',
  title: 'Épisode à venir : le sommeil des sportifs',
  format: 'podcast',
  episode: 11,
  duration: 30,
  themes: ['rythmes'],
  publishedAt: '2025-06-02',
  excerpt: 'Brouillon : épisode en préparation.',
  body: ['Brouillon en cours de rédaction.'],
  related: [],
};
