/**
 * Technology blocks of product pages (`productContent`, component ProductContentTechnologies):
 * one French text per value of the products' `technology` custom field (seed/catalogue.ts).
 * The seed writes one entry per distinct value found in the seeded products; a value without a
 * text here gets a plain generic one. Entry ids are `tech-{slug of the name}`.
 */
import { slugify } from './random.ts';

export function technologyId(name: string): string {
  return `tech-${slugify(name)}`.slice(0, 64);
}

/** name -> [title, description paragraphs (rich-text.ts markup)]. */
export const TECHNOLOGY_TEXTS: Record<string, readonly [string, readonly string[]]> = {
  'Ressorts ensachés': [
    'Des ressorts ensachés, indépendants',
    [
      'Chaque ressort est cousu dans sa propre poche de tissu et travaille **indépendamment** de ses voisins : le matelas suit les courbes du corps et les mouvements d’un dormeur ne réveillent pas l’autre.',
      'L’air circule librement entre les ressorts, pour un couchage sain et frais.',
    ],
  ],
  'Ressorts ensachés 7 zones': [
    'Sept zones de confort',
    [
      'Les ressorts ensachés sont répartis en **sept zones** de fermeté différente : plus souples aux épaules, plus toniques au bassin, pour garder la colonne alignée.',
    ],
  ],
  'Micro-ressorts ensachés': [
    'Des micro-ressorts pour un accueil précis',
    [
      'Plus petits et plus nombreux, jusqu’à 2 000 en 160 x 200, les micro-ressorts offrent un accueil d’une grande précision, juste sous le garnissage.',
    ],
  ],
  'Ressorts biconiques': [
    'Les ressorts biconiques, la tradition',
    [
      'Reliés entre eux par un fil d’acier, les ressorts en forme de sablier forment un ensemble homogène et **ferme**, réputé pour sa longévité.',
    ],
  ],
  'Ressorts Bonnell': [
    'Ressorts Bonnell',
    [
      'Une suspension à ressorts reliés, économique et robuste, qui offre un soutien tonique et une excellente ventilation.',
    ],
  ],
  'Mousse à mémoire de forme': [
    'La mémoire de forme',
    [
      'Sensible à la chaleur du corps, la mousse viscoélastique se modèle lentement sous vous et **soulage les points de pression** des épaules et des hanches.',
      'Elle reprend sa forme quelques secondes après que vous vous êtes levé.',
    ],
  ],
  'Mémoire de forme 60 kg/m³': [
    'Mémoire de forme haute densité',
    [
      'Avec une densité de 60 kg/m³, cette mousse à mémoire de forme garde ses qualités d’accueil pendant de longues années.',
    ],
  ],
  'Mousse au gel rafraîchissant': [
    'Une mousse au gel rafraîchissant',
    [
      'Des particules de gel intégrées à la mousse absorbent la chaleur du corps : l’accueil enveloppant de la mémoire de forme, sans la sensation de chaud.',
    ],
  ],
  'Mousse HR 30 kg/m³': [
    'Mousse haute résilience 30 kg/m³',
    ['Une mousse à cellules ouvertes, légère et aérée, qui reprend instantanément sa forme.'],
  ],
  'Mousse HR 35 kg/m³': [
    'Mousse haute résilience 35 kg/m³',
    [
      'La mousse HR reprend **immédiatement** sa forme et offre un soutien dynamique. À 35 kg/m³, elle convient à un usage quotidien.',
    ],
  ],
  'Mousse HR 40 kg/m³': [
    'Mousse haute résilience 40 kg/m³',
    ['Plus dense, donc plus durable : un soutien tonique qui ne se tasse pas au fil des années.'],
  ],
  'Mousse HR 50 kg/m³': [
    'Mousse haute résilience 50 kg/m³',
    [
      'La densité la plus élevée de notre gamme, pour un soutien ferme et une longévité exceptionnelle.',
    ],
  ],
  'Latex naturel': [
    'Le latex naturel',
    [
      'Issu de la sève de l’hévéa, le latex naturel est souple, élastique et naturellement résistant aux acariens. Ses alvéoles laissent respirer le couchage.',
    ],
  ],
  'Latex naturel 85 kg/m³': [
    'Latex naturel 85 kg/m³',
    ['Un latex dense et moelleux à la fois, pour un accueil ferme et enveloppant.'],
  ],
  'Latex 7 zones': [
    'Latex à sept zones',
    [
      'Des perforations de tailles différentes créent sept zones de confort pour accompagner chaque partie du corps.',
    ],
  ],
  'Hybride ressorts et mémoire de forme': [
    'L’hybride ressorts et mémoire de forme',
    [
      'Des ressorts ensachés pour le soutien et l’aération, une couche de mémoire de forme pour l’accueil : le meilleur des deux technologies.',
    ],
  ],
  'Hybride ressorts et latex': [
    'L’hybride ressorts et latex',
    ['Le rebond du latex sur une suspension à ressorts ensachés : un couchage tonique et frais.'],
  ],
  'Fibres de coco et latex': [
    'Coco et latex pour les petits',
    [
      'Une plaque de fibres de coco, ferme et aérée, associée à une fine couche de latex : le soutien dont ont besoin les enfants.',
    ],
  ],
  'Lattes multiplis': [
    'Des lattes multiplis',
    [
      'Les lattes en bois multiplis, cintrées et montées sur embouts souples, assurent une suspension souple et une ventilation idéale.',
    ],
  ],
  'Lattes à réglage de fermeté': [
    'Fermeté réglable',
    [
      'Des curseurs au niveau des reins permettent de raffermir le soutien là où vous en avez besoin.',
    ],
  ],
  'Double lattage': [
    'Le double lattage',
    [
      'Deux rangs de lattes superposés doublent les points de soutien, pour les matelas en latex et en mousse.',
    ],
  ],
  'Ressorts tapissiers': [
    'Le sommier tapissier à ressorts',
    ['Des ressorts sous un tissu tendu : un amorti généreux et l’allure d’un lit d’hôtel.'],
  ],
  'Lattes tapissières': [
    'Lattes tapissières',
    ['Des lattes larges habillées de tissu, pour un soutien ferme et silencieux.'],
  ],
  'Moteur silencieux': [
    'Un moteur silencieux',
    [
      'Relevez le buste ou les jambes d’une pression sur la télécommande, sans bruit, même quand l’autre dort.',
    ],
  ],
  'Double moteur': [
    'Deux moteurs indépendants',
    ['Un moteur pour le buste, un pour les jambes : chaque position se règle séparément.'],
  ],
  'Matelas ressorts et sommier tapissier': [
    'L’ensemble ressorts et tapissier',
    ['Un matelas à ressorts et son sommier tapissier assorti, conçus pour fonctionner ensemble.'],
  ],
  'Matelas mousse et sommier à lattes': [
    'L’ensemble mousse et lattes',
    ['Un matelas en mousse posé sur un sommier à lattes : léger, aéré et facile à déplacer.'],
  ],
  'Mémoire de forme au gel': [
    'Mémoire de forme au gel',
    ['Le maintien de la nuque de la mémoire de forme, la fraîcheur du gel en prime.'],
  ],
  "Duvet d'oie 90 %": [
    'Duvet d’oie 90 %',
    [
      'Un garnissage composé à 90 % de duvet, pour un gonflant et une légèreté incomparables. Plumes et duvet sont traçables.',
    ],
  ],
  'Plumettes de canard': [
    'Plumettes de canard',
    ['Des petites plumes souples qui donnent un soutien moelleux et modulable.'],
  ],
  'Duvet de canard 50 %': [
    'Duvet de canard 50 %',
    ['Moitié duvet, moitié plumettes : l’équilibre entre gonflant et maintien.'],
  ],
  'Fibres creuses siliconées': [
    'Fibres creuses siliconées',
    [
      'Des fibres creuses traitées au silicone glissent les unes sur les autres : un oreiller qui reste gonflant et passe en machine.',
    ],
  ],
  Microfibre: [
    'La microfibre',
    ['Un garnissage synthétique très fin, doux comme le duvet et lavable à 60 °C.'],
  ],
  'Fibre de bambou': [
    'La fibre de bambou',
    ['Douce et respirante, elle évacue l’humidité et garde une sensation de fraîcheur.'],
  ],
  'Duvet et plumettes': [
    'Duvet et plumettes',
    ['Le mélange traditionnel des couettes tempérées, gonflant et bien isolant.'],
  ],
  'Soie sauvage': [
    'La soie sauvage',
    ['Légère et thermorégulatrice, la soie tient chaud l’hiver sans jamais étouffer.'],
  ],
  "Duvet d'oie": [
    'Duvet d’oie',
    ['Le garnissage le plus chaud et le plus léger, pour les nuits d’hiver.'],
  ],
  'Laine de mouton': [
    'Laine de mouton',
    ['Naturellement isolante, la laine régule la température et absorbe l’humidité.'],
  ],
  'Fibres creuses': [
    'Fibres creuses',
    [
      'Des fibres synthétiques creuses qui emprisonnent l’air : chaleur et légèreté, lavables en machine.',
    ],
  ],
  'Percale de coton': [
    'Percale de coton',
    ['Un tissage serré, mat et frais, qui devient plus doux à chaque lavage.'],
  ],
  Lin: ['Le lin', ['Une fibre naturelle, thermorégulatrice, idéale pour l’été.']],
  'Fibre légère': [
    'Fibre légère',
    ['Un garnissage fin pour les nuits chaudes, qui tient juste ce qu’il faut.'],
  ],
  'Percale de coton 80 fils/cm²': [
    'Percale de coton 80 fils/cm²',
    [
      'Le tissage de référence de l’hôtellerie : **80 fils au cm²**, un toucher net et frais, une grande solidité au lavage.',
    ],
  ],
  'Satin de coton 120 fils/cm²': [
    'Satin de coton 120 fils/cm²',
    ['Un tissage satiné, soyeux et légèrement brillant, d’une grande douceur.'],
  ],
  'Lin lavé': [
    'Le lin lavé',
    ['Lavé pour être souple dès la première nuit, avec son froissé naturel et élégant.'],
  ],
  'Jersey de coton': [
    'Jersey de coton',
    ['Une maille extensible qui épouse les matelas épais, sans repassage.'],
  ],
  'Gaze de coton': [
    'Gaze de coton',
    ['Une double gaze légère et gaufrée, aérienne et très douce.'],
  ],
  'Soie de mûrier': [
    'Soie de mûrier',
    ['Douce pour la peau et les cheveux, la soie limite les frottements pendant la nuit.'],
  ],
  'Molleton de coton': [
    'Molleton de coton',
    ['Un molleton épais et absorbant qui protège le matelas tout en restant doux.'],
  ],
  'Membrane respirante': [
    'Membrane imperméable et respirante',
    [
      'Une membrane fine arrête les liquides mais laisse passer la vapeur d’eau : pas de bruit, pas de chaleur.',
    ],
  ],
  Tencel: ['Tencel', ['Une fibre issue du bois d’eucalyptus, douce, fraîche et très absorbante.']],
  Plumettes: [
    'Plumettes',
    ['Un surmatelas moelleux garni de plumettes, pour adoucir un couchage ferme.'],
  ],
  'Gel rafraîchissant': [
    'Gel rafraîchissant',
    ['Une couche de gel qui dissipe la chaleur pour des nuits plus fraîches.'],
  ],
  'Laine mérinos': [
    'Laine mérinos',
    ['Fine et douce, la laine mérinos ne gratte pas et tient chaud sans poids.'],
  ],
  'Velours côtelé': [
    'Velours côtelé',
    ['Un velours à grosses côtes, chaleureux au toucher et dans la chambre.'],
  ],
  'Structure en hêtre massif': [
    'Structure en hêtre massif',
    ['Un bâti en hêtre massif, solide et durable, issu de forêts gérées durablement.'],
  ],
  'Rotin naturel': [
    'Rotin naturel',
    ['Tressé à la main, le rotin apporte légèreté et chaleur naturelle.'],
  ],
  'Chêne massif': [
    'Chêne massif',
    ['Le chêne massif, huilé à la main, se patine joliment avec le temps.'],
  ],
  'Pin massif': ['Pin massif', ['Un bois clair et robuste, au style nordique.']],
  'Acier thermolaqué': [
    'Acier thermolaqué',
    ['Une structure en acier recouverte d’une peinture cuite, résistante aux rayures.'],
  ],
  'Hêtre et cannage': [
    'Hêtre et cannage',
    ['L’alliance du hêtre massif et du cannage tressé, pour une tête de lit légère et graphique.'],
  ],
  'Sommier à lattes intégré et vérins': [
    'Un coffre à vérins',
    [
      'Le sommier à lattes se relève sans effort grâce à deux vérins à gaz et dévoile un grand coffre de rangement.',
    ],
  ],
};

/** Title and paragraphs of a technology; a generic text for a value not written above. */
export function technologyText(name: string): readonly [string, readonly string[]] {
  return (
    TECHNOLOGY_TEXTS[name] ?? [
      name,
      [`${name} : une technologie sélectionnée par nos équipes pour votre confort.`],
    ]
  );
}
