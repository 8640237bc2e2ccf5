/**
 * The hand-written catalogue of the sandbox: category tree, brands, colours, sizes and the
 * product models of every leaf category. All text here is ours (French, invented brands).
 * `products.ts` turns it into BigCommerce records with a seeded PRNG.
 */

export type SceneKey =
  | 'matelas'
  | 'sommier'
  | 'ensemble'
  | 'oreiller'
  | 'couette'
  | 'drap'
  | 'housse'
  | 'taie'
  | 'protege'
  | 'surmatelas'
  | 'traversin'
  | 'plaid'
  | 'tete'
  | 'cadre'
  | 'coffre';

export interface Colour {
  name: string;
  hex: string;
}

/** Fabric colours of bed linen, plaids and upholstered beds. */
export const TEXTILE_COLOURS: readonly Colour[] = [
  { name: 'Blanc', hex: '#F7F5F0' },
  { name: 'Ivoire', hex: '#EFE6D2' },
  { name: 'Lin naturel', hex: '#D6C7AC' },
  { name: 'Gris perle', hex: '#C8CACD' },
  { name: 'Anthracite', hex: '#4A4E54' },
  { name: 'Bleu nuit', hex: '#243B5A' },
  { name: 'Bleu orage', hex: '#5C7C99' },
  { name: 'Vert sauge', hex: '#9DAF94' },
  { name: 'Terracotta', hex: '#C4704F' },
  { name: 'Rose poudré', hex: '#E4B9B2' },
];

/** Colours of the plaids (a subset of the textile ones). */
export const PLAID_COLOURS: readonly Colour[] = TEXTILE_COLOURS.filter((c) =>
  ['Lin naturel', 'Gris perle', 'Anthracite', 'Bleu orage', 'Vert sauge', 'Terracotta'].includes(
    c.name,
  ),
);

/** Velvet and boucle colours of headboards and storage beds. */
export const UPHOLSTERY_COLOURS: readonly Colour[] = [
  { name: 'Velours bleu canard', hex: '#1F5C63' },
  { name: 'Velours vert empire', hex: '#2E4A3A' },
  { name: 'Velours terracotta', hex: '#B5613F' },
  { name: 'Velours rose thé', hex: '#D9A5A0' },
  { name: 'Bouclette écrue', hex: '#EDE5D5' },
  { name: 'Velours bordeaux', hex: '#6E2A35' },
];

/** Wood and metal finishes of bed frames. */
export const FRAME_COLOURS: readonly Colour[] = [
  { name: 'Chêne naturel', hex: '#C59D6A' },
  { name: 'Noyer', hex: '#6B4A32' },
  { name: 'Blanc mat', hex: '#F2F0EB' },
  { name: 'Noir mat', hex: '#2B2B2D' },
];

/** Tints of the products sold without a colour option (mattresses, pillows...). */
export const PLAIN_TINTS: Record<string, Colour> = {
  blanc: { name: 'Blanc', hex: '#F7F5F0' },
  ivoire: { name: 'Ivoire', hex: '#EFE6D2' },
  gris: { name: 'Gris perle', hex: '#C8CACD' },
  anthracite: { name: 'Anthracite', hex: '#4A4E54' },
  sable: { name: 'Sable', hex: '#CDB894' },
};

export interface Family {
  scene: SceneKey;
  /** Word the product names start with. */
  prefix: string;
  /** Article before the lower-cased name in descriptions ('Le ', 'La ', "L'"). */
  article: string;
  /** Sizes offered, in centimetres ('140x190') or a width ('160'). Empty: no size option. */
  sizes: readonly string[];
  /** Sizes every product of the family has (the rest is drawn). */
  coreSizes: readonly string[];
  /** Colour palette of the colour option; absent: no colour option, tints are used. */
  palette?: readonly Colour[];
  /** Tints of the pictures when there is no colour option. */
  tints: readonly string[];
  /** Price range of the reference (smallest) size, in euros. */
  price: readonly [number, number];
  /** Chances of inventory tracking none / product / variant. */
  tracking: readonly [number, number, number];
  type1: string;
  type3: readonly string[];
  technology: readonly string[];
  certifications: readonly string[];
  /** Éco-participation of the reference size, in euros (furniture only). */
  ecoParticipation?: number;
  weight: number;
  paragraphs: readonly (readonly string[])[];
}

const MATELAS_PARAGRAPHS = [
  [
    '{Art}{name} offre un accueil {accueil} et un soutien {fermete} qui accompagne chaque mouvement de la nuit. Son âme en {tech} répartit le poids du corps et soulage les points de pression au niveau des épaules et du bassin.',
    'Pensé pour les dormeurs qui changent souvent de position, {art}{name} associe une âme en {tech} à un garnissage généreux. Résultat : un couchage {fermete}, stable sur toute la surface, y compris en bordure.',
    "Avec {art}{name}, {brand} signe un matelas {fermete} à l'accueil {accueil}. L'âme en {tech} assure une indépendance de couchage appréciable lorsque l'on dort à deux.",
  ],
  [
    "Le coutil en tissu stretch, traité sans produits chimiques irritants, reste doux au toucher et laisse circuler l'air. Une face hiver en laine et une face été en coton permettent d'adapter le couchage à la saison.",
    "Sa hauteur de {hauteur} cm et ses plates-bandes aérées garantissent une excellente ventilation : l'humidité de la nuit s'évacue et le matelas garde sa fraîcheur au fil des années.",
    'La housse zippée se retire facilement et passe en machine à 40 °C. Quatre poignées latérales brodées facilitent le retournement, conseillé tous les trois mois.',
  ],
  [
    "Fabriqué dans nos ateliers partenaires, il est livré roulé sous vide ou à plat selon la taille choisie. Comptez 48 heures pour qu'il retrouve sa forme définitive.",
    "Nous conseillons de l'associer à un sommier à lattes ou tapissier de même dimension pour profiter pleinement de son soutien.",
    "Essai de 100 nuits chez vous : s'il ne vous convient pas, nous le reprenons gratuitement.",
  ],
];

const SOMMIER_PARAGRAPHS = [
  [
    '{Art}{name} prolonge le soutien de votre matelas et en augmente la durée de vie. Sa structure en {tech} absorbe les mouvements et limite les grincements.',
    'Conçu par {brand}, {art}{name} apporte une suspension {fermete} grâce à sa structure en {tech}, idéale avec un matelas à ressorts ou en latex.',
  ],
  [
    "Le cadre en bois massif issu de forêts gérées durablement est recouvert d'un tissu tendu anthracite. Les pieds se vissent sans outil.",
    'Les lattes multiplis cintrées sont montées sur embouts souples et réglables au niveau des reins pour un confort sur mesure.',
    "Ventilation optimale sous le matelas : l'espace entre les lattes laisse l'air circuler et évite l'humidité.",
  ],
  [
    'Livré en kit, il se monte en une vingtaine de minutes à deux personnes. Garantie 10 ans sur la structure.',
    'Hauteur du sommier : {hauteur} cm, pieds non fournis (à choisir dans nos accessoires).',
  ],
];

const OREILLER_PARAGRAPHS = [
  [
    "{Art}{name} maintient la nuque dans l'alignement de la colonne, que l'on dorme sur le dos ou sur le côté. Son garnissage en {tech} reste {accueil} nuit après nuit.",
    "Doux et {accueil}, {art}{name} {deBrand} épouse la forme de la tête sans s'affaisser. Le garnissage en {tech} respire et évite la sensation de chaleur.",
  ],
  [
    "L'enveloppe en percale de coton peigné, finition passepoil, est agréable au toucher et solide au lavage.",
    'Il se lave en machine à 60 °C, ce qui élimine les acariens ; un passage au sèche-linge lui rend tout son gonflant.',
  ],
  [
    'Nous recommandons de renouveler un oreiller tous les deux à trois ans pour une hygiène parfaite.',
    'Livré dans une housse en coton réutilisable, sans plastique.',
  ],
];

const COUETTE_PARAGRAPHS = [
  [
    '{Art}{name} vous tient au chaud sans alourdir le lit. Son garnissage en {tech} régule la température pour un sommeil {accueil} toute la nuit.',
    'Légère et gonflante, {art}{name} {deBrand} est garnie de {tech}. Les piqûres en carrés cousus maintiennent le garnissage bien réparti.',
  ],
  [
    'Son enveloppe en percale de coton 100 % est douce et respirante ; la finition passepoil renforce ses bords.',
    'Elle se lave en machine à 40 °C et passe au sèche-linge à basse température avec deux balles de tennis pour retrouver son volume.',
  ],
  [
    "Indice de chaleur indiqué sur l'étiquette ; pour les chambres chauffées, préférez une couette tempérée.",
    'Garantie 5 ans. Livrée dans une housse de rangement en coton.',
  ],
];

const LINGE_PARAGRAPHS = [
  [
    "Tissé en {tech}, {art}{name} est doux dès le premier jour et s'embellit au fil des lavages. Sa teinte {couleur} s'accorde avec tout notre linge de lit.",
    '{Art}{name} {deBrand} est confectionné en {tech}, une matière respirante, agréable en toute saison. Choisissez parmi de nombreux coloris pour composer votre lit.',
    "Fraîcheur en été, douceur en hiver : {art}{name} en {tech} apporte une touche d'hôtel raffiné à votre chambre.",
  ],
  [
    'Les finitions sont soignées : coutures doubles, ourlet piqué et teinture garantie sans substances nocives.',
    'Lavable en machine à 60 °C, il se repasse facilement, ou pas du tout pour un effet froissé naturel.',
    'Bonnet de 30 cm élastiqué sur tout le tour, adapté aux matelas épais et aux surmatelas.',
  ],
  [
    'Confectionné dans un atelier familial qui travaille le coton depuis trois générations.',
    'Disponible dans toutes les tailles standard ; les dimensions spéciales sont réalisables sur demande.',
  ],
];

const ACCESSOIRE_PARAGRAPHS = [
  [
    '{Art}{name} protège votre matelas des taches et des acariens tout en restant silencieux et respirant. Sa face en {tech} garde un toucher {accueil}.',
    'Ajoutez une couche de confort à votre lit avec {art}{name} : son garnissage en {tech} rend le couchage plus {accueil} sans changer de matelas.',
    "{Art}{name} {deBrand} complète votre literie avec une matière en {tech}, douce et facile d'entretien.",
  ],
  [
    'Il se fixe par bonnets élastiqués et se lave en machine à 60 °C.',
    "Convient aux matelas jusqu'à 30 cm d'épaisseur.",
    'Un passage au sèche-linge à basse température est possible.',
  ],
  ['Garantie 3 ans.', 'Fabriqué en France à partir de fibres certifiées.'],
];

const LIT_PARAGRAPHS = [
  [
    "{Art}{name} donne du caractère à la chambre. Sa finition {couleur} se marie aussi bien avec un intérieur scandinave qu'avec des meubles anciens.",
    'Dessiné par {brand}, {art}{name} associe une structure en {tech} et des lignes épurées pour une chambre apaisante.',
  ],
  [
    'La structure en bois massif est garantie 10 ans. Les pieds sont réglables pour compenser les sols irréguliers.',
    'Montage simple, visserie et notice fournies. Comptez une trentaine de minutes à deux.',
    "Le coffre de rangement à vérins s'ouvre sans effort et offre un grand volume pour le linge de maison.",
  ],
  [
    'À associer au matelas et au sommier de votre choix, de même dimension.',
    'Livraison en étage et montage à domicile en option.',
  ],
];

export const FAMILIES = {
  matelas: {
    scene: 'matelas',
    prefix: 'Matelas',
    article: 'Le ',
    sizes: ['80x200', '90x190', '140x190', '160x200', '180x200', '200x200'],
    coreSizes: ['90x190', '140x190', '160x200'],
    tints: ['blanc', 'ivoire', 'gris'],
    price: [279, 1290],
    tracking: [0.2, 0.15, 0.65],
    type1: 'Matelas',
    type3: ['Ferme', 'Mi-ferme', 'Équilibré', 'Très ferme', 'Moelleux'],
    technology: ['Ressorts ensachés'],
    certifications: ['OEKO-TEX', 'CertiPUR'],
    ecoParticipation: 4.5,
    weight: 28,
    paragraphs: MATELAS_PARAGRAPHS,
  },
  matelasEnfant: {
    scene: 'matelas',
    prefix: 'Matelas',
    article: 'Le ',
    sizes: ['60x120', '70x140', '90x190'],
    coreSizes: ['60x120', '70x140'],
    tints: ['blanc', 'ivoire'],
    price: [89, 290],
    tracking: [0.2, 0.3, 0.5],
    type1: 'Matelas',
    type3: ['Ferme', 'Mi-ferme'],
    technology: ['Mousse HR 30 kg/m³', 'Fibres de coco et latex'],
    certifications: ['OEKO-TEX', 'GOTS'],
    ecoParticipation: 2,
    weight: 8,
    paragraphs: MATELAS_PARAGRAPHS,
  },
  sommier: {
    scene: 'sommier',
    prefix: 'Sommier',
    article: 'Le ',
    sizes: ['90x190', '140x190', '160x200', '180x200'],
    coreSizes: ['90x190', '140x190', '160x200'],
    tints: ['anthracite', 'sable'],
    price: [149, 990],
    tracking: [0.3, 0.2, 0.5],
    type1: 'Sommier',
    type3: ['Ferme', 'Souple', 'Équilibré'],
    technology: ['Lattes multiplis'],
    certifications: ['FSC', 'PEFC'],
    ecoParticipation: 6,
    weight: 22,
    paragraphs: SOMMIER_PARAGRAPHS,
  },
  ensemble: {
    scene: 'ensemble',
    prefix: 'Ensemble',
    article: "L'",
    sizes: ['140x190', '160x200', '180x200'],
    coreSizes: ['140x190', '160x200'],
    tints: ['gris', 'sable'],
    price: [590, 1990],
    tracking: [0.5, 0, 0.5],
    type1: 'Ensemble',
    type3: ['Ferme', 'Équilibré', 'Mi-ferme'],
    technology: ['Matelas et sommier assortis'],
    certifications: ['OEKO-TEX', 'FSC'],
    ecoParticipation: 10.5,
    weight: 50,
    paragraphs: MATELAS_PARAGRAPHS,
  },
  oreiller: {
    scene: 'oreiller',
    prefix: 'Oreiller',
    article: "L'",
    sizes: ['60x60', '50x70', '45x70'],
    coreSizes: ['60x60'],
    tints: ['blanc', 'ivoire'],
    price: [29, 149],
    tracking: [0.2, 0.3, 0.5],
    type1: 'Oreiller',
    type3: ['Ferme', 'Moelleux', 'Équilibré'],
    technology: ['Mousse à mémoire de forme'],
    certifications: ['OEKO-TEX'],
    weight: 1,
    paragraphs: OREILLER_PARAGRAPHS,
  },
  couette: {
    scene: 'couette',
    prefix: 'Couette',
    article: 'La ',
    sizes: ['140x200', '200x200', '220x240', '240x260'],
    coreSizes: ['140x200', '220x240'],
    tints: ['blanc', 'ivoire'],
    price: [59, 390],
    tracking: [0.2, 0.2, 0.6],
    type1: 'Couette',
    type3: ['Tempérée', 'Chaude', 'Légère'],
    technology: ['Duvet et plumettes'],
    certifications: ['OEKO-TEX', 'Downpass'],
    weight: 2,
    paragraphs: COUETTE_PARAGRAPHS,
  },
  drap: {
    scene: 'drap',
    prefix: 'Drap housse',
    article: 'Le ',
    sizes: ['90x190', '140x190', '160x200', '180x200'],
    coreSizes: ['90x190', '140x190', '160x200'],
    palette: TEXTILE_COLOURS,
    tints: [],
    price: [24, 89],
    tracking: [0.1, 0.2, 0.7],
    type1: 'Linge de lit',
    type3: ['Percale de coton', 'Satin de coton', 'Lin lavé', 'Gaze de coton', 'Jersey'],
    technology: ['Percale de coton 80 fils/cm²'],
    certifications: ['OEKO-TEX', 'GOTS', 'Masters of Linen'],
    weight: 0.6,
    paragraphs: LINGE_PARAGRAPHS,
  },
  drapPlat: {
    scene: 'drap',
    prefix: 'Drap plat',
    article: 'Le ',
    sizes: ['180x290', '240x300', '270x300'],
    coreSizes: ['240x300'],
    palette: TEXTILE_COLOURS,
    tints: [],
    price: [29, 99],
    tracking: [0.1, 0.3, 0.6],
    type1: 'Linge de lit',
    type3: ['Percale de coton', 'Lin lavé', 'Satin de coton'],
    technology: ['Percale de coton 80 fils/cm²'],
    certifications: ['OEKO-TEX', 'Masters of Linen'],
    weight: 0.8,
    paragraphs: LINGE_PARAGRAPHS,
  },
  housse: {
    scene: 'housse',
    prefix: 'Housse de couette',
    article: 'La ',
    sizes: ['140x200', '200x200', '220x240', '240x260'],
    coreSizes: ['140x200', '220x240', '240x260'],
    palette: TEXTILE_COLOURS,
    tints: [],
    price: [49, 189],
    tracking: [0.1, 0.2, 0.7],
    type1: 'Linge de lit',
    type3: ['Percale de coton', 'Satin de coton', 'Lin lavé', 'Gaze de coton'],
    technology: ['Percale de coton 80 fils/cm²'],
    certifications: ['OEKO-TEX', 'GOTS', 'Masters of Linen'],
    weight: 1.2,
    paragraphs: LINGE_PARAGRAPHS,
  },
  parure: {
    scene: 'housse',
    prefix: 'Parure de lit',
    article: 'La ',
    sizes: ['140x200', '220x240', '240x260'],
    coreSizes: ['220x240'],
    palette: TEXTILE_COLOURS,
    tints: [],
    price: [89, 249],
    tracking: [0.2, 0.2, 0.6],
    type1: 'Linge de lit',
    type3: ['Percale de coton', 'Satin de coton', 'Lin lavé'],
    technology: ['Satin de coton 120 fils/cm²'],
    certifications: ['OEKO-TEX', 'GOTS'],
    weight: 1.8,
    paragraphs: LINGE_PARAGRAPHS,
  },
  taie: {
    scene: 'taie',
    prefix: "Taie d'oreiller",
    article: 'La ',
    sizes: ['50x70', '60x60', '65x65'],
    coreSizes: ['60x60'],
    palette: TEXTILE_COLOURS,
    tints: [],
    price: [12, 45],
    tracking: [0.1, 0.3, 0.6],
    type1: 'Linge de lit',
    type3: ['Percale de coton', 'Satin de coton', 'Lin lavé', 'Soie'],
    technology: ['Percale de coton 80 fils/cm²'],
    certifications: ['OEKO-TEX', 'Masters of Linen'],
    weight: 0.2,
    paragraphs: LINGE_PARAGRAPHS,
  },
  protege: {
    scene: 'protege',
    prefix: 'Protège-matelas',
    article: 'Le ',
    sizes: ['90x190', '140x190', '160x200', '180x200'],
    coreSizes: ['90x190', '140x190', '160x200'],
    tints: ['blanc'],
    price: [29, 89],
    tracking: [0.2, 0.4, 0.4],
    type1: 'Accessoire',
    type3: ['Imperméable', 'Molleton'],
    technology: ['Molleton de coton'],
    certifications: ['OEKO-TEX'],
    weight: 0.8,
    paragraphs: ACCESSOIRE_PARAGRAPHS,
  },
  surmatelas: {
    scene: 'surmatelas',
    prefix: 'Surmatelas',
    article: 'Le ',
    sizes: ['90x190', '140x190', '160x200'],
    coreSizes: ['90x190', '140x190', '160x200'],
    tints: ['ivoire'],
    price: [89, 349],
    tracking: [0.2, 0.3, 0.5],
    type1: 'Accessoire',
    type3: ['Ferme', 'Moelleux'],
    technology: ['Mousse à mémoire de forme'],
    certifications: ['OEKO-TEX', 'CertiPUR'],
    weight: 5,
    paragraphs: ACCESSOIRE_PARAGRAPHS,
  },
  traversin: {
    scene: 'traversin',
    prefix: 'Traversin',
    article: 'Le ',
    sizes: ['90', '140', '160'],
    coreSizes: ['140'],
    tints: ['blanc'],
    price: [29, 119],
    tracking: [0.3, 0.3, 0.4],
    type1: 'Accessoire',
    type3: ['Ferme', 'Moelleux'],
    technology: ['Plumettes de canard'],
    certifications: ['OEKO-TEX'],
    weight: 1,
    paragraphs: OREILLER_PARAGRAPHS,
  },
  plaid: {
    scene: 'plaid',
    prefix: 'Plaid',
    article: 'Le ',
    sizes: ['130x170', '150x200'],
    coreSizes: ['130x170'],
    palette: PLAID_COLOURS,
    tints: [],
    price: [39, 149],
    tracking: [0.2, 0.4, 0.4],
    type1: 'Accessoire',
    type3: ['Laine', 'Coton', 'Lin'],
    technology: ['Laine mérinos'],
    certifications: ['OEKO-TEX', 'Woolmark'],
    weight: 1.2,
    paragraphs: ACCESSOIRE_PARAGRAPHS,
  },
  tete: {
    scene: 'tete',
    prefix: 'Tête de lit',
    article: 'La ',
    sizes: ['140', '160', '180'],
    coreSizes: ['140', '160'],
    palette: UPHOLSTERY_COLOURS,
    tints: [],
    price: [149, 590],
    tracking: [0.4, 0.2, 0.4],
    type1: 'Lit',
    type3: ['Velours', 'Lin', 'Bois'],
    technology: ['Structure en hêtre massif'],
    certifications: ['FSC'],
    ecoParticipation: 3,
    weight: 12,
    paragraphs: LIT_PARAGRAPHS,
  },
  cadre: {
    scene: 'cadre',
    prefix: 'Lit',
    article: 'Le ',
    sizes: ['140x190', '160x200', '180x200'],
    coreSizes: ['140x190', '160x200'],
    palette: FRAME_COLOURS,
    tints: [],
    price: [299, 1190],
    tracking: [0.5, 0.1, 0.4],
    type1: 'Lit',
    type3: ['Bois massif', 'Métal'],
    technology: ['Chêne massif'],
    certifications: ['FSC', 'PEFC'],
    ecoParticipation: 9,
    weight: 45,
    paragraphs: LIT_PARAGRAPHS,
  },
  coffre: {
    scene: 'coffre',
    prefix: 'Lit coffre',
    article: 'Le ',
    sizes: ['140x190', '160x200'],
    coreSizes: ['140x190', '160x200'],
    palette: UPHOLSTERY_COLOURS,
    tints: [],
    price: [490, 1290],
    tracking: [0.4, 0.1, 0.5],
    type1: 'Lit',
    type3: ['Velours', 'Lin'],
    technology: ['Sommier à lattes intégré et vérins'],
    certifications: ['FSC'],
    ecoParticipation: 12,
    weight: 70,
    paragraphs: LIT_PARAGRAPHS,
  },
} satisfies Record<string, Family>;

export type FamilyKey = keyof typeof FAMILIES;

export interface CategorySeed {
  name: string;
  description: string;
  children?: CategorySeed[];
  isVisible?: boolean;
  /** Leaf categories: products are drawn from this family... */
  family?: FamilyKey;
  /** ...with these model names (the family prefix is added). */
  models?: readonly string[];
  /** Technology custom field of the leaf, overrides the family's. */
  technology?: readonly string[];
  brands?: readonly string[];
}

const MATTRESS_BRANDS = ['Dormelune', 'Maison Vauclair', 'Bertin & Fils', 'Somnéa', 'Nuit Blanche'];
const BASE_BRANDS = ['Bertin & Fils', 'Bois Dormant', 'Atelier Lorrain', 'Somnéa'];
const SOFT_BRANDS = ['Plumes de Provence', 'Dormelune', 'Ouate & Lin'];
const LINEN_BRANDS = ["Les Tisserands d'Armor", 'Ouate & Lin', 'Nuit Blanche'];
const BED_BRANDS = ['Atelier Lorrain', 'Bois Dormant', 'Maison Vauclair'];

export const CATEGORY_TREE: CategorySeed[] = [
  {
    name: 'Matelas',
    description:
      '<p>Ressorts, mousse, latex ou hybride : trouvez le matelas qui correspond à votre façon de dormir. Tous nos matelas sont essayés 100 nuits chez vous.</p>',
    children: [
      {
        name: 'Matelas ressorts',
        description:
          '<p>Les matelas à ressorts offrent un soutien tonique et une excellente aération. Ensachés ou biconiques, ils conviennent aux dormeurs qui ont chaud.</p>',
        children: [
          {
            name: 'Ressorts ensachés',
            description:
              "<p>Chaque ressort est cousu dans sa propre poche : le couchage suit la morphologie et les mouvements d'un dormeur ne dérangent pas l'autre.</p>",
            family: 'matelas',
            technology: [
              'Ressorts ensachés',
              'Ressorts ensachés 7 zones',
              'Micro-ressorts ensachés',
            ],
            brands: MATTRESS_BRANDS,
            models: [
              'Élysée',
              'Grand Hôtel',
              'Capucine',
              'Opéra',
              'Mirabeau',
              'Orangerie',
              'Trianon',
              'Castille',
            ],
          },
          {
            name: 'Ressorts biconiques',
            description:
              '<p>La literie traditionnelle par excellence : des ressorts reliés entre eux pour un soutien ferme et une longévité remarquable.</p>',
            family: 'matelas',
            technology: ['Ressorts biconiques', 'Ressorts Bonnell'],
            brands: MATTRESS_BRANDS,
            models: ['Tradition', 'Bastide', 'Clos Fleuri', 'Régence'],
          },
        ],
      },
      {
        name: 'Matelas mousse',
        description:
          '<p>Légers et silencieux, les matelas en mousse épousent les formes du corps. Mémoire de forme ou haute résilience, à vous de choisir.</p>',
        children: [
          {
            name: 'Mémoire de forme',
            description:
              "<p>La mousse viscoélastique se modèle sous l'effet de la chaleur pour un accueil enveloppant qui soulage les points de pression.</p>",
            family: 'matelas',
            technology: [
              'Mousse à mémoire de forme',
              'Mémoire de forme 60 kg/m³',
              'Mousse au gel rafraîchissant',
            ],
            brands: MATTRESS_BRANDS,
            models: [
              'Nuage',
              'Ondine',
              'Céleste',
              'Aurore',
              'Zéphyr',
              'Lune de Miel',
              'Azur',
              'Équinoxe',
            ],
          },
          {
            name: 'Haute résilience',
            description:
              '<p>Une mousse à cellules ouvertes, dense et aérée, qui reprend immédiatement sa forme : un soutien tonique au meilleur prix.</p>',
            family: 'matelas',
            technology: ['Mousse HR 35 kg/m³', 'Mousse HR 40 kg/m³', 'Mousse HR 50 kg/m³'],
            brands: MATTRESS_BRANDS,
            models: ['Essentiel', 'Horizon', 'Galet', 'Alizé', 'Pléiade', "Vent d'Ouest"],
          },
        ],
      },
      {
        name: 'Matelas latex',
        description:
          '<p>Naturel ou synthétique, le latex est souple, durable et naturellement résistant aux acariens. Idéal pour les dormeurs allergiques.</p>',
        family: 'matelas',
        technology: ['Latex naturel', 'Latex naturel 85 kg/m³', 'Latex 7 zones'],
        brands: MATTRESS_BRANDS,
        models: ['Hévéa', 'Naturel Bio', 'Sève', 'Forêt Claire', 'Hévéa Duo', 'Sylve', 'Canopée'],
      },
      {
        name: 'Matelas hybrides',
        description:
          "<p>Le meilleur des deux mondes : des ressorts ensachés pour le soutien, une couche de mousse ou de latex pour l'accueil.</p>",
        family: 'matelas',
        technology: ['Hybride ressorts et mémoire de forme', 'Hybride ressorts et latex'],
        brands: MATTRESS_BRANDS,
        models: ['Fusion', 'Duo Confort', 'Harmonie', 'Symbiose', 'Équilibre', 'Alliance'],
      },
      {
        name: 'Matelas enfant',
        description:
          "<p>Des matelas fermes et sains pour les lits de bébé et d'enfant, aux matières certifiées sans substances nocives.</p>",
        family: 'matelasEnfant',
        brands: ['Dormelune', 'Somnéa', 'Ouate & Lin'],
        models: ["P'tit Loup", 'Doudou', 'Petit Prince', 'Libellule', 'Cabane'],
      },
    ],
  },
  {
    name: 'Sommiers',
    description:
      '<p>Le sommier fait la moitié du confort : à lattes, tapissier ou de relaxation, il prolonge le soutien du matelas.</p>',
    children: [
      {
        name: 'Sommiers à lattes',
        description:
          '<p>Les lattes en bois multiplis assurent un soutien souple et une ventilation idéale, parfaites pour les matelas en latex ou en mousse.</p>',
        family: 'sommier',
        technology: ['Lattes multiplis', 'Lattes à réglage de fermeté', 'Double lattage'],
        brands: BASE_BRANDS,
        models: [
          'Lattes Rigide',
          'Confort Plus',
          'Ébène',
          'Flex 28 lattes',
          'Chêne Massif',
          'Nordik',
        ],
      },
      {
        name: 'Sommiers tapissiers',
        description:
          "<p>Ressorts ou lattes sous un tissu tendu : le sommier tapissier donne au lit une allure d'hôtel et amortit les mouvements.</p>",
        family: 'sommier',
        technology: ['Ressorts tapissiers', 'Lattes tapissières'],
        brands: BASE_BRANDS,
        models: [
          'Tapissier Royal',
          'Tapissier Classique',
          'Tapissier Déco',
          'Manoir',
          'Hôtelier',
          'Palace',
        ],
      },
      {
        name: 'Sommiers de relaxation',
        description:
          "<p>Relevez le buste ou les jambes d'une simple pression : lire, regarder un film ou soulager le dos devient un plaisir.</p>",
        family: 'sommier',
        technology: ['Moteur silencieux', 'Double moteur'],
        brands: BASE_BRANDS,
        models: [
          'Relax Électrique',
          'Duo Relax',
          'Relax Premium',
          'Zénith Motorisé',
          'Relax Tradition',
        ],
      },
    ],
  },
  {
    name: 'Ensembles literie',
    description:
      '<p>Matelas et sommier assortis, livrés ensemble à un prix avantageux : la solution la plus simple pour renouveler sa literie.</p>',
    family: 'ensemble',
    technology: ['Matelas ressorts et sommier tapissier', 'Matelas mousse et sommier à lattes'],
    brands: MATTRESS_BRANDS,
    models: ['Élysée', 'Nuage', 'Hévéa', 'Fusion', 'Tradition', 'Palace'],
  },
  {
    name: 'Oreillers',
    description:
      "<p>Mémoire de forme, plumes ou synthétique : l'oreiller idéal dépend de votre position de sommeil.</p>",
    children: [
      {
        name: 'Oreillers mémoire de forme',
        description: '<p>Ergonomiques, ils maintiennent la nuque et soulagent les cervicales.</p>',
        family: 'oreiller',
        technology: ['Mousse à mémoire de forme', 'Mémoire de forme au gel'],
        brands: SOFT_BRANDS,
        models: [
          'Ergonomique',
          'Cervical',
          'Moelleux Mémoire',
          'Papillon',
          'Ergo Fraîcheur',
          'Confort Nuque',
        ],
      },
      {
        name: 'Oreillers plumes et duvet',
        description:
          '<p>Le moelleux incomparable des garnissages naturels, traçables et lavables.</p>',
        family: 'oreiller',
        technology: ["Duvet d'oie 90 %", 'Plumettes de canard', 'Duvet de canard 50 %'],
        brands: SOFT_BRANDS,
        models: ["Duvet d'Oie", 'Plume Tradition', 'Duvet de Canard', 'Gonflant', 'Hôtel Prestige'],
      },
      {
        name: 'Oreillers synthétiques',
        description:
          '<p>Faciles à laver, hypoallergéniques et légers, ils conviennent à toute la famille.</p>',
        family: 'oreiller',
        technology: ['Fibres creuses siliconées', 'Microfibre', 'Fibre de bambou'],
        brands: SOFT_BRANDS,
        models: ['Fibre Douce', 'Anti-acariens', 'Lavable 95°', 'Bambou', 'Gonflant Microfibre'],
      },
    ],
  },
  {
    name: 'Couettes',
    description:
      "<p>Une couette pour chaque saison : légère pour l'été, tempérée pour la mi-saison, chaude pour l'hiver.</p>",
    children: [
      {
        name: 'Couettes tempérées',
        description: "<p>Le bon compromis pour les chambres chauffées, toute l'année.</p>",
        family: 'couette',
        technology: ['Duvet et plumettes', 'Fibre de bambou', 'Soie sauvage'],
        brands: SOFT_BRANDS,
        models: ['Douceur', 'Quatre Saisons', 'Bambou Tempérée', 'Duvet Tempéré', 'Soie Sauvage'],
      },
      {
        name: 'Couettes chaudes',
        description: '<p>Gonflantes et enveloppantes pour les nuits les plus froides.</p>',
        family: 'couette',
        technology: ["Duvet d'oie", 'Laine de mouton', 'Fibres creuses'],
        brands: SOFT_BRANDS,
        models: ['Grand Froid', 'Duvet Chaud', 'Laine de Mouton', 'Cocoon'],
      },
      {
        name: 'Couettes légères',
        description:
          "<p>Fines et respirantes, elles accompagnent les nuits d'été sans tenir chaud.</p>",
        family: 'couette',
        technology: ['Percale de coton', 'Lin', 'Fibre légère'],
        brands: SOFT_BRANDS,
        models: ['Été Indien', 'Percale Légère', 'Lin Léger', 'Brise'],
      },
    ],
  },
  {
    name: 'Linge de lit',
    description:
      '<p>Percale, satin, lin lavé ou gaze de coton : composez votre lit avec nos draps, housses et taies coordonnés.</p>',
    children: [
      {
        name: 'Draps housses',
        description: '<p>Des bonnets profonds pour tous les matelas, même les plus épais.</p>',
        family: 'drap',
        technology: [
          'Percale de coton 80 fils/cm²',
          'Satin de coton 120 fils/cm²',
          'Lin lavé',
          'Jersey de coton',
        ],
        brands: LINEN_BRANDS,
        models: [
          'Percale Essentielle',
          'Satin Prestige',
          'Jersey Extensible',
          'Lin Lavé',
          'Coton Bio',
          'Gaze Douce',
          'Flanelle Hiver',
        ],
      },
      {
        name: 'Housses de couette',
        description:
          '<p>Unies, rayées ou imprimées, faciles à enfiler grâce à leur ouverture boutonnée.</p>',
        family: 'housse',
        technology: [
          'Percale de coton 80 fils/cm²',
          'Satin de coton 120 fils/cm²',
          'Lin lavé',
          'Gaze de coton',
        ],
        brands: LINEN_BRANDS,
        models: [
          'Percale Essentielle',
          'Satin Prestige',
          'Lin Lavé',
          'Gaze de Coton',
          'Rayures Marines',
          'Jacquard Feuillage',
          'Coton Lavé',
        ],
      },
      {
        name: "Taies d'oreiller",
        description: '<p>Assorties à nos housses de couette, en format carré ou rectangulaire.</p>',
        family: 'taie',
        technology: [
          'Percale de coton 80 fils/cm²',
          'Satin de coton 120 fils/cm²',
          'Lin lavé',
          'Soie de mûrier',
        ],
        brands: LINEN_BRANDS,
        models: [
          'Percale Essentielle',
          'Satin Prestige',
          'Lin Lavé',
          'Volant Brodé',
          'Gaze de Coton',
          'Soie',
        ],
      },
      {
        name: 'Parures de lit',
        description: '<p>Housse de couette et taies coordonnées, réunies dans un même coffret.</p>',
        family: 'parure',
        technology: ['Satin de coton 120 fils/cm²', 'Percale de coton 80 fils/cm²', 'Lin lavé'],
        brands: LINEN_BRANDS,
        models: ['Bohème', "Jardin d'Hiver", 'Riviera', 'Bord de Mer', 'Atelier Lin'],
      },
      {
        name: 'Draps plats',
        description:
          "<p>Le drap plat, grand classique de l'hôtellerie, pour un lit impeccable.</p>",
        family: 'drapPlat',
        technology: ['Percale de coton 80 fils/cm²', 'Lin lavé', 'Satin de coton 120 fils/cm²'],
        brands: LINEN_BRANDS,
        models: ['Percale Hôtel', 'Lin Lavé', 'Satin Prestige', 'Ourlet Brodé'],
      },
    ],
  },
  {
    name: 'Accessoires',
    description:
      '<p>Protège-matelas, surmatelas, traversins et plaids : les petits plus qui prolongent la vie de votre literie.</p>',
    children: [
      {
        name: 'Protège-matelas',
        description:
          "<p>Une barrière douce et respirante contre les taches, l'humidité et les acariens.</p>",
        family: 'protege',
        technology: ['Molleton de coton', 'Membrane respirante', 'Tencel'],
        brands: SOFT_BRANDS,
        models: [
          'Imperméable Respirant',
          'Molleton Coton',
          'Anti-acariens',
          'Bambou',
          'Intégral Housse',
          'Tencel',
        ],
      },
      {
        name: 'Surmatelas',
        description:
          '<p>Une couche de confort supplémentaire pour adoucir ou raviver un matelas.</p>',
        family: 'surmatelas',
        technology: [
          'Mousse à mémoire de forme',
          'Latex naturel',
          'Plumettes',
          'Gel rafraîchissant',
        ],
        brands: SOFT_BRANDS,
        models: [
          'Mémoire de Forme 5 cm',
          'Latex 4 cm',
          'Plume Moelleux',
          'Fibre Confort',
          'Gel Fraîcheur',
        ],
      },
      {
        name: 'Traversins',
        description: '<p>Le complément traditionnel du lit à la française.</p>',
        family: 'traversin',
        technology: ['Plumettes de canard', 'Fibres creuses', 'Mousse à mémoire de forme'],
        brands: SOFT_BRANDS,
        models: ['Plumes', 'Fibre Douce', 'Mémoire', 'Duvet'],
      },
      {
        name: 'Plaids et jetés de lit',
        description: '<p>Une touche de couleur et de chaleur au pied du lit.</p>',
        family: 'plaid',
        technology: ['Laine mérinos', 'Gaze de coton', 'Velours côtelé', 'Lin lavé'],
        brands: LINEN_BRANDS,
        models: ['Grosse Maille', 'Laine Mérinos', 'Gaze Lavée', 'Velours Côtelé', 'Lin Frangé'],
      },
    ],
  },
  {
    name: 'Lits',
    description:
      '<p>Têtes de lit, cadres et lits coffres fabriqués en bois massif ou habillés de tissu.</p>',
    children: [
      {
        name: 'Têtes de lit',
        description:
          '<p>Capitonnées, en rotin ou en bois massif, elles donnent le ton à la chambre.</p>',
        family: 'tete',
        technology: ['Structure en hêtre massif', 'Rotin naturel', 'Chêne massif'],
        brands: BED_BRANDS,
        models: [
          'Velours Capitonné',
          'Médaillon',
          'Arche',
          'Rotin Naturel',
          'Chêne Massif',
          'Lin Boutonné',
        ],
      },
      {
        name: 'Cadres de lit',
        description:
          '<p>Des lits robustes aux lignes sobres, à garnir du sommier de votre choix.</p>',
        family: 'cadre',
        technology: ['Chêne massif', 'Pin massif', 'Acier thermolaqué', 'Hêtre et cannage'],
        brands: BED_BRANDS,
        models: ['Chêne Massif', 'Scandinave', 'Métal Atelier', 'Bois Cannage', 'Plateforme'],
      },
      {
        name: 'Lits coffres',
        description:
          '<p>Un grand rangement caché sous le couchage, idéal pour les petites chambres.</p>',
        family: 'coffre',
        technology: ['Sommier à lattes intégré et vérins'],
        brands: BED_BRANDS,
        models: ['Velours', 'Lin', 'Hôtel', 'Relevable'],
      },
    ],
  },
  {
    name: 'Ventes privées',
    description:
      '<p>Des offres réservées à nos clients inscrits. Cette catégorie est masquée de la navigation par un métachamp.</p>',
    children: [],
  },
  {
    name: 'Déstockage',
    description:
      "<p>Fins de séries et modèles d'exposition. Catégorie désactivée sur la vitrine.</p>",
    isVisible: false,
    children: [],
  },
];

export const BRANDS: readonly { name: string; description: string }[] = [
  { name: 'Dormelune', description: 'Matelas et oreillers conçus à Lyon depuis 1962.' },
  { name: 'Maison Vauclair', description: "Literie haut de gamme cousue main dans l'Yonne." },
  { name: 'Plumes de Provence', description: 'Couettes et oreillers garnis de duvet traçable.' },
  { name: 'Atelier Lorrain', description: 'Lits et têtes de lit en bois massif des Vosges.' },
  { name: 'Nuit Blanche', description: 'Linge de lit et matelas au design parisien.' },
  {
    name: 'Bertin & Fils',
    description: 'Sommiers tapissiers et matelas à ressorts, entreprise familiale.',
  },
  { name: 'Ouate & Lin', description: 'Matières naturelles et certifiées pour toute la chambre.' },
  { name: "Les Tisserands d'Armor", description: 'Tissage de lin et de coton en Bretagne.' },
  {
    name: 'Bois Dormant',
    description: 'Sommiers et cadres de lit en bois issus de forêts gérées.',
  },
  { name: 'Somnéa', description: 'Literie accessible et bien notée, livrée en 48 heures.' },
];

export const LABELS = ['Nouveauté', 'Best-seller', 'Exclusivité web', 'Éco-conçu', 'Coup de cœur'];
export const CORNER_FLAGS = [
  'Nouveau',
  'Offre de lancement',
  'Fabriqué en France',
  'Prix doux',
  'Édition limitée',
];
export const COLLECTIONS = ['Les Essentiels', 'Collection Hôtel', 'Signature', 'Nature', 'Atelier'];
export const ACCUEILS = ['moelleux', 'enveloppant', 'équilibré', 'tonique', 'ferme'];
export const SHIPPING_DELAYS = [
  'Expédié sous 48 h',
  'Livré en 3 à 5 jours ouvrés',
  'Livré en 5 à 7 jours ouvrés',
  'Fabriqué à la commande, livré en 3 semaines',
];
export const SHIPPING_DELAYS_OUT_OF_STOCK = [
  'Réassort sous 2 à 3 semaines',
  'Réassort sous 4 à 6 semaines',
  'De retour le mois prochain',
];
export const PURCHASING_DISABLED_MESSAGES = [
  'Bientôt de retour dans cette taille',
  'Taille en cours de fabrication, disponible dans 3 semaines',
  'Coloris arrêté, plus disponible à la vente',
];
