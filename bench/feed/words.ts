// The words and tags of the benchmark's pins: what people pin (homes, food, travel, style, crafts,
// nature, art), so search meets a realistic vocabulary. Pins draw from these lists with a
// power-law skew (a few words and tags are common, most are rare), as real text does; the
// benchmark's queries draw the same way, so popular queries are the common ones.

/** Most common first. */
export const WORDS = `
home kitchen garden recipe easy summer light wood small living room bedroom modern vintage white
green blue cozy simple style ideas healthy dinner chicken salad pasta bread chocolate cake cookies
coffee tea breakfast lunch soup spicy sweet fresh lemon garlic vegan baking dessert travel beach
mountain lake city island road trip hiking camping forest river sunset sunrise ocean coast village
winter autumn spring rain snow flowers roses tulips plants herbs tomatoes succulents balcony patio
porch table chair sofa shelf lamp rug curtains mirror window door wall paint colour palette neutral
black gold brass marble linen cotton wool velvet leather ceramic glass stone brick concrete tiles
bathroom shower closet storage organization diy craft knitting sewing quilt embroidery pottery clay
watercolor drawing sketch illustration poster print photography portrait landscape film camera
street architecture bridge tower castle cathedral museum gallery market cafe restaurant bakery
shop fashion outfit dress jacket coat boots sneakers scarf hat bag jewelry ring necklace earrings
hair makeup nails wedding party birthday christmas halloween easter gift wrapping cards lettering
typography logo branding design interior minimalist rustic farmhouse scandinavian boho industrial
coastal tropical mediterranean japanese french italian mexican indian thai korean ramen sushi tacos
curry pizza burger sandwich smoothie juice cocktail wine beer cheese butter honey berries apple
peach cherry banana avocado mushroom pumpkin potato carrot onion pepper spinach rice beans lentils
noodles dumplings pancakes waffles muffins scones pie tart cupcakes icecream yoghurt granola
workout yoga running cycling swimming climbing surfing skiing football tennis garden-path terrace
pool cabin cottage loft studio apartment nursery kids toys baby puppy kitten dog cat bird horse
butterfly bee owl fox deer bear whale dolphin turtle fish shells sand dunes desert canyon valley
waterfall glacier volcano cave meadow field orchard vineyard harbour pier lighthouse boat sailing
train station airport map compass backpack tent campfire stars moon galaxy night clouds storm fog
rainbow moss fern maple oak pine birch bamboo cactus lavender sunflower daisy peony orchid lily
tulip dahlia wreath bouquet vase candle basket blanket pillow throw cushion bench swing hammock
fence gate path stairs arch column dome facade roof chimney fireplace stove oven sink counter
island pantry jar bottle cup mug plate bowl spoon knife board tray napkin tablecloth centerpiece
invitation menu label sticker stamp notebook journal planner calendar desk office workspace
bookshelf books reading library poem quote letter handwriting calligraphy brush ink pastel charcoal
acrylic oil canvas frame collage mosaic mural graffiti sculpture installation exhibition festival
concert music guitar piano violin drums vinyl record dance ballet theatre cinema movie comic anime
game puzzle chess lego robot rocket planet astronaut science chemistry garden-bed compost seeds
greenhouse harvest picnic barbecue grill bonfire lantern lights fairy garland ribbon lace pearls
crystal gemstone silver copper rust teal coral mint blush mustard terracotta olive navy burgundy
lilac peach-tone sage charcoal-grey ivory cream beige taupe emerald sapphire ruby amber indigo
crème brûlée café résumé naïve façade über piñata jalapeño crêpe smörgåsbord fjord
`
  .split(/\s+/)
  .filter(Boolean);

/** Most common first; a few in other scripts and with accents, as users write them. */
export const TAGS = `
homedecor recipes travel diy garden food fashion art photography interiordesign nature wedding
baking vegan healthy summer christmas autumn winter spring kitchen livingroom bedroom bathroom
minimalist vintage boho rustic farmhouse scandinavian modern cozy handmade crafts knitting sewing
quilting embroidery pottery ceramics watercolor illustration drawing painting sketchbook
printmaking typography calligraphy lettering design branding logo architecture streetphotography
landscape portrait film analog blackandwhite sunset sunrise beach mountains hiking camping
roadtrip vanlife cabin lake ocean islands desert forest waterfall wildflowers roses succulents
houseplants herbs vegetables fruit breakfast dinner dessert chocolate coffee tea cocktails wine
cheese bread pasta pizza ramen sushi tacos curry soup salad smoothie brunch picnic barbecue
birthday party halloween easter valentines giftideas wrapping stationery journaling planner
bulletjournal books reading poetry quotes music vinyl concert dance ballet cinema anime comics
gaming boardgames chess lego toys kids nursery baby pets dogs cats puppies kittens birds horses
butterflies bees wildlife ocean whales turtles seashells stars astronomy space moon galaxy
science tech gadgets workspace office desk organization storage cleaning laundry smallspaces
apartment tinyhouse renovation beforeandafter paintcolors wallpaper tiles flooring lighting
lamps rugs curtains pillows blankets candles wreaths bouquets flowerarranging ikebana bonsai
terrarium greenhouse composting permaculture beekeeping chickens homestead preserving canning
fermentation sourdough pastry cakes cupcakes cookies pies tarts icecream streetfood foodtruck
mexicanfood italianfood frenchfood japanesefood indianfood thaifood koreanfood mediterranean
outfits streetstyle menswear womenswear shoes sneakers bags jewelry rings earrings hairstyles
makeup nailart skincare fitness yoga running cycling swimming climbing surfing skiing
snowboarding football tennis basketball travelblog europe asia africa americas paris london
tokyo newyork rome barcelona lisbon berlin kyoto iceland norway scotland café crème été
über 東京 旅行 料理 夏 сад лето
`
  .split(/\s+/)
  .filter(Boolean);

/** How skewed the draws are: index = floor(n · u^SKEW) for u uniform in [0, 1). */
export const SKEW = 1.6;

/** A power-law draw from a list of n, from a uniform number u in [0, 1). */
export const skewedIndex = (n: number, u: number) => Math.min(n - 1, Math.floor(n * u ** SKEW));
